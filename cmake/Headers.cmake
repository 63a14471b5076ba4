# corank_install_headers(TARGET <target> HEADERS <path>...): installs each
# header (a path relative to the current source dir, as it is included) under
# the include dir, and records it for tests/headers, which compiles every
# installed header alone against <target>'s usage requirements. Installing a
# header is a promise that it compiles alone.
function(corank_install_headers)
  cmake_parse_arguments(ARG "" "TARGET" "HEADERS" ${ARGN})
  foreach(h IN LISTS ARG_HEADERS)
    get_filename_component(dir ${h} DIRECTORY)
    install(FILES ${h} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/${dir} COMPONENT dev)
    set_property(GLOBAL APPEND PROPERTY CORANK_INSTALLED_HEADERS "${ARG_TARGET}:${h}")
  endforeach()
endfunction()
