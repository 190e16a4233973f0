# init_macros.cmake - the public header's *_INIT macros compile without a
# warning under -Wall -Wextra -Wpedantic -Werror, in C and (where CXX is
# given) in C++, and tests/init_macros.c uses every one of them. Run as
# cmake -DCC=... [-DCXX=...] -DHEADER_DIR=... -DCL_INCLUDE=... -DSOURCE=...
# -DWORK=... -P init_macros.cmake.

# file(STRINGS) would not do: a line ending in a backslash escapes the
# list separator after it.
file(READ ${HEADER_DIR}/xwg_barrier.h header)
string(REGEX MATCHALL "#define XWG_[A-Z_]+_INIT " defines "${header}")
file(READ ${SOURCE} source)
set(count 0)
foreach(line IN LISTS defines)
  string(REGEX REPLACE "#define (XWG_[A-Z_]+_INIT) " "\\1" name "${line}")
  math(EXPR count "${count} + 1")
  if(NOT source MATCHES "${name}")
    message(FATAL_ERROR "${SOURCE} does not use ${name}")
  endif()
endforeach()
if(count EQUAL 0)
  message(FATAL_ERROR "no #define XWG_..._INIT found in the header")
endif()

set(flags -Wall -Wextra -Wpedantic -Werror -I${HEADER_DIR})
foreach(dir ${CL_INCLUDE})
  list(APPEND flags -I${dir})
endforeach()
file(MAKE_DIRECTORY ${WORK})
set(compilers "C|${CC}|-std=c99")
if(CXX)
  list(APPEND compilers "C++|${CXX}|-x,c++,-std=c++11")
endif()
foreach(entry IN LISTS compilers)
  string(REPLACE "|" ";" parts "${entry}")
  list(GET parts 0 lang)
  list(GET parts 1 compiler)
  list(SUBLIST parts 2 -1 std)
  string(REPLACE "," ";" std "${std}")
  execute_process(COMMAND ${compiler} ${std} ${flags} ${SOURCE}
                          -o ${WORK}/init_macros.${lang}.o -c
                  RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${lang}: the _INIT macros warn:\n${out}${err}")
  endif()
  message(STATUS "${lang}: ${count} _INIT macros compile without warnings")
endforeach()
