# One ctest test per GoogleTest *suite* (gtest_discover_tests registers one per TEST): under the
# sanitizers a test process costs about a second before its first test runs (loading the binary,
# static initializers, the leak check at exit), and the suites are a quarter as many as the tests.
#
# sonnx_gtest_suites(TARGET PREFIX <prefix> [PROPERTIES <ctest properties>...])
# registers "<prefix><Suite>" running `TARGET --gtest_filter=<Suite>.*` for every suite the binary
# lists after each build.
function(sonnx_gtest_suites target)
  cmake_parse_arguments(ARG "" "PREFIX" "PROPERTIES" ${ARGN})
  set(ctest_file "${CMAKE_CURRENT_BINARY_DIR}/${target}_suites.cmake")
  string(REPLACE ";" "|" props "${ARG_PROPERTIES}")  # a list cannot cross the command line
  add_custom_command(TARGET ${target} POST_BUILD
    COMMAND ${CMAKE_COMMAND} -D "EXECUTABLE=$<TARGET_FILE:${target}>" -D "CTEST_FILE=${ctest_file}"
            -D "PREFIX=${ARG_PREFIX}" -D "PROPERTIES=${props}" -P "${PROJECT_SOURCE_DIR}/cmake/GTestSuitesList.cmake"
    BYPRODUCTS "${ctest_file}" VERBATIM)
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${ctest_file}")
endfunction()
