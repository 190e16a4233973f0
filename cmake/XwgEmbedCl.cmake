# XwgEmbedCl.cmake - one way to bring OpenCL source into a C program: the
# source is a plain .cl file, and the build writes it into a generated C
# file as a NUL-terminated char array (cmake/embed_kernels.cmake), so the
# program needs no file at run time, installed or not.

set(XWG_EMBED_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/embed_kernels.cmake)

# xwg_embed_cl_file(<symbol> <input>... [HEADER])
# Generates embedded/<symbol>.c in the current binary folder, which
# defines
#     const char <symbol>[];
# the inputs (relative to the current source folder, or absolute) in
# order, and with HEADER the header embedded/<symbol>.h that declares it.
# The caller adds the file to a target; a symbol is embedded once a
# folder, however many targets compile it.
function(xwg_embed_cl_file symbol)
  set(dir ${CMAKE_CURRENT_BINARY_DIR}/embedded)
  set(inputs "")
  set(header "")
  foreach(input IN LISTS ARGN)
    if(input STREQUAL "HEADER")
      set(header ${dir}/${symbol}.h)
      continue()
    endif()
    get_filename_component(input "${input}" ABSOLUTE
                           BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
    list(APPEND inputs "${input}")
  endforeach()
  # A CMake list cannot cross the command line: '|' separates the inputs.
  string(REPLACE ";" "|" joined "${inputs}")
  add_custom_command(
    OUTPUT ${dir}/${symbol}.c ${header}
    COMMAND ${CMAKE_COMMAND} "-DOUTPUT=${dir}/${symbol}.c"
            "-DHEADER=${header}" "-DSYMBOL=${symbol}"
            "-DINPUTS=${joined}" -P ${XWG_EMBED_SCRIPT}
    DEPENDS ${inputs} ${XWG_EMBED_SCRIPT}
    COMMENT "Embedding ${symbol}" VERBATIM)
endfunction()

# xwg_embed_cl(<target> <symbol> <input>...)
# Embeds the inputs as <symbol> (xwg_embed_cl_file) into <target>, and
# puts the header <symbol>.h on its include path: PUBLIC, so that a
# library of embedded sources passes it on to the targets that link it.
function(xwg_embed_cl target symbol)
  xwg_embed_cl_file(${symbol} ${ARGN} HEADER)
  set(dir ${CMAKE_CURRENT_BINARY_DIR}/embedded)
  target_sources(${target} PRIVATE ${dir}/${symbol}.c ${dir}/${symbol}.h)
  target_include_directories(${target} PUBLIC ${dir})
endfunction()
