# Compression codecs behind Boost.Iostreams. With CORANK_STATIC_DEPS the static
# archives from the Debian -dev packages are linked, so a build folder runs on
# a machine that has none of these libraries installed.
add_library(corank_codecs INTERFACE)
if(CORANK_STATIC_DEPS)
  foreach(lib z bz2 lzma zstd)
    find_library(CORANK_${lib}_A NAMES lib${lib}.a REQUIRED)
    target_link_libraries(corank_codecs INTERFACE ${CORANK_${lib}_A})
  endforeach()
else()
  pkg_check_modules(ZSTD REQUIRED IMPORTED_TARGET libzstd)
  find_package(ZLIB REQUIRED)
  find_package(BZip2 REQUIRED)
  find_package(LibLZMA REQUIRED)
  target_link_libraries(corank_codecs INTERFACE ZLIB::ZLIB BZip2::BZip2 LibLZMA::LibLZMA PkgConfig::ZSTD)
endif()
