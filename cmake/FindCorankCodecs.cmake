# FindCorankCodecs: the compression libraries behind corank's Boost.Iostreams
# filters: zlib, bzip2, xz (lzma) and zstd (Debian: zlib1g-dev libbz2-dev
# liblzma-dev libzstd-dev).
#   CorankCodecs_USE_STATIC_LIBS  link their static archives (a build that runs
#                                 on a machine without these libraries)
# Defines CorankCodecs_FOUND, one IMPORTED target CorankCodecs::<lib> per
# library (z bz2 lzma zstd) and CorankCodecs::CorankCodecs linking them all.
# Shipped with corank's CMake package, so the exported targets name these
# targets and each consumer finds the libraries on its own machine.
set(_corank_codec_headers z zlib.h bz2 bzlib.h lzma lzma.h zstd zstd.h)
set(_corank_codec_vars "")
foreach(lib IN ITEMS z bz2 lzma zstd)
  list(FIND _corank_codec_headers ${lib} i)
  math(EXPR i "${i} + 1")
  list(GET _corank_codec_headers ${i} header)
  find_path(CorankCodecs_${lib}_INCLUDE_DIR NAMES ${header})
  if(CorankCodecs_USE_STATIC_LIBS)
    find_library(CorankCodecs_${lib}_LIBRARY NAMES lib${lib}.a)
  else()
    find_library(CorankCodecs_${lib}_LIBRARY NAMES ${lib})
  endif()
  mark_as_advanced(CorankCodecs_${lib}_INCLUDE_DIR CorankCodecs_${lib}_LIBRARY)
  list(APPEND _corank_codec_vars CorankCodecs_${lib}_LIBRARY CorankCodecs_${lib}_INCLUDE_DIR)
endforeach()
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(CorankCodecs REQUIRED_VARS ${_corank_codec_vars})
if(CorankCodecs_FOUND AND NOT TARGET CorankCodecs::CorankCodecs)
  add_library(CorankCodecs::CorankCodecs INTERFACE IMPORTED)
  foreach(lib IN ITEMS z bz2 lzma zstd)
    add_library(CorankCodecs::${lib} UNKNOWN IMPORTED)
    set_target_properties(CorankCodecs::${lib} PROPERTIES
      IMPORTED_LOCATION "${CorankCodecs_${lib}_LIBRARY}"
      INTERFACE_INCLUDE_DIRECTORIES "${CorankCodecs_${lib}_INCLUDE_DIR}")
    target_link_libraries(CorankCodecs::CorankCodecs INTERFACE CorankCodecs::${lib})
  endforeach()
endif()
unset(_corank_codec_headers)
unset(_corank_codec_vars)
