# FindCctz: Google's cctz, time zones from the tz database (Debian: libcctz-dev,
# which ships neither a CMake package nor a pkg-config file).
# Defines the IMPORTED target Cctz::Cctz.
find_path(Cctz_INCLUDE_DIR NAMES cctz/time_zone.h)
find_library(Cctz_LIBRARY NAMES cctz)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(Cctz REQUIRED_VARS Cctz_LIBRARY Cctz_INCLUDE_DIR)
if(Cctz_FOUND AND NOT TARGET Cctz::Cctz)
  add_library(Cctz::Cctz UNKNOWN IMPORTED)
  set_target_properties(Cctz::Cctz PROPERTIES
    IMPORTED_LOCATION "${Cctz_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${Cctz_INCLUDE_DIR}")
endif()
mark_as_advanced(Cctz_INCLUDE_DIR Cctz_LIBRARY)
