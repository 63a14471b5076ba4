# FindLibUring: liburing (Debian: liburing-dev).
#   LibUring_USE_STATIC_LIBS  link liburing.a instead of the shared library
# Defines LibUring_FOUND and the IMPORTED target LibUring::LibUring.
# Shipped with corank's CMake package, so the exported targets name this
# target and each consumer finds liburing on its own machine.
find_path(LibUring_INCLUDE_DIR NAMES liburing.h)
if(LibUring_USE_STATIC_LIBS)
  find_library(LibUring_LIBRARY NAMES liburing.a)
else()
  find_library(LibUring_LIBRARY NAMES uring)
endif()
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(LibUring REQUIRED_VARS LibUring_LIBRARY LibUring_INCLUDE_DIR)
mark_as_advanced(LibUring_INCLUDE_DIR LibUring_LIBRARY)
if(LibUring_FOUND AND NOT TARGET LibUring::LibUring)
  add_library(LibUring::LibUring UNKNOWN IMPORTED)
  set_target_properties(LibUring::LibUring PROPERTIES
    IMPORTED_LOCATION "${LibUring_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${LibUring_INCLUDE_DIR}")
endif()
