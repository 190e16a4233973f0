# consumer.cmake - tests that build a small program against the INSTALLED
# xwg (tests/consumer/consumer.c): once through the exported CMake package
# (find_package(xwg) + xwg::xwg), once through xwg.pc and plain cc; and
# the installed commands, run from a moved prefix. Each installs the build
# tree into its own temporary prefix, so they may run in parallel.
# Included from tests/CMakeLists.txt; ctest runs after the build, so the
# library to install is already there.
find_program(XWG_BASH bash)
if(NOT XWG_BASH)
  message(STATUS "bash not found: consumer tests skipped")
  return()
endif()

set(_xwg_consumer_script
  ${PROJECT_SOURCE_DIR}/tests/consumer/run_consumer_test.sh)

add_test(NAME consumer_cmake_package
  COMMAND ${XWG_BASH} ${_xwg_consumer_script}
          ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR} ${CMAKE_COMMAND} cmake)

find_program(XWG_PKG_CONFIG pkg-config)
if(XWG_PKG_CONFIG)
  add_test(NAME consumer_pkgconfig
    COMMAND ${XWG_BASH} ${_xwg_consumer_script}
            ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR} ${CMAKE_COMMAND} pkgconfig)
  set(_xwg_consumer_tests consumer_cmake_package consumer_pkgconfig)
else()
  message(STATUS "pkg-config not found: consumer_pkgconfig skipped")
  set(_xwg_consumer_tests consumer_cmake_package)
endif()

# The installed commands run from a moved prefix with no LD_LIBRARY_PATH.
if(TARGET xwg-discover)
  add_test(NAME consumer_installed_tools
    COMMAND ${XWG_BASH} ${_xwg_consumer_script}
            ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR} ${CMAKE_COMMAND} tools)
  list(APPEND _xwg_consumer_tests consumer_installed_tools)
endif()

set_tests_properties(${_xwg_consumer_tests} PROPERTIES
  TIMEOUT 300 LABELS consumer)
