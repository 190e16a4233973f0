# cli_test.cmake - xwg-discover's contract. Run as
# cmake -DCLI=path/to/xwg-discover -P cli_test.cmake on PoCL alone, with
# CASE one of:
#   json (the default)  --json has every documented field; --help and
#                       --version exit 0; bad input exits non-zero with a
#                       one-line message;
#   platform_name       --platform-name matches the name or the vendor
#                       ignoring case ("pocl" is only in PoCL's vendor), and
#                       a text that matches nothing names every platform;
#   text                the table says the highest OpenCL C version, the
#                       one --json calls opencl_c_max (PoCL reports "OpenCL
#                       C 1.2" in CL_DEVICE_OPENCL_C_VERSION, beside an
#                       atomics path that needs 2.0).
# Or with -DNO_DEVICES=1 on a platform that has none (rusticl without
# RUSTICL_ENABLE): it is listed, and the run fails saying so; or with
# -DREFUSED=1 on a device whose self-test fails (rusticl on llvmpipe).

function(run_cli expect_ok)
  execute_process(COMMAND ${CLI} ${ARGN} RESULT_VARIABLE rc
                  OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 240)
  if(expect_ok AND NOT rc EQUAL 0)
    message(FATAL_ERROR "xwg-discover ${ARGN}: exit ${rc}\n${err}")
  endif()
  if(NOT expect_ok)
    if(rc EQUAL 0)
      message(FATAL_ERROR "xwg-discover ${ARGN}: should have failed")
    endif()
    string(STRIP "${err}" err)
    if(err STREQUAL "" OR err MATCHES "\n")
      message(FATAL_ERROR "xwg-discover ${ARGN}: not one line: '${err}'")
    endif()
  endif()
  set(out "${out}" PARENT_SCOPE)
  set(err "${err}" PARENT_SCOPE)
endfunction()

if(DEFINED CASE AND NOT CASE MATCHES "^(json|platform_name|text)$")
  message(FATAL_ERROR "unknown CASE '${CASE}'")
endif()

# REFUSED: on a device whose self-test fails (rusticl on llvmpipe), the
# report says that xwg refuses it and how to force it.
if(REFUSED)
  run_cli(TRUE --local-size 64 --repeat 1)
  if(NOT out MATCHES "barrier self-test: failed" OR
     NOT out MATCHES "xwg refuses this device: .*XWG_SELF_TEST=report forces it")
    message(FATAL_ERROR "the refusal is not said plainly:\n${out}")
  endif()
  return()
endif()

if(NO_DEVICES)
  run_cli(FALSE)
  if(NOT out MATCHES "platform 0: rusticl: no devices")
    message(FATAL_ERROR "a platform without devices is not listed:\n${out}")
  endif()
  return()
endif()

if(CASE STREQUAL "platform_name")
  # A part of the name in any case; and what users type, "pocl", which is
  # in CL_PLATFORM_VENDOR ("The pocl project"), not in the name.
  foreach(name "portable COMPUTING" pocl)
    run_cli(TRUE --platform-name "${name}" --local-size 64 --repeat 1)
    if(NOT out MATCHES "platform 0: Portable Computing Language")
      message(FATAL_ERROR "--platform-name '${name}' did not select PoCL:\n${out}")
    endif()
  endforeach()
  run_cli(FALSE --platform-name no-such-platform)
  if(NOT err MATCHES "no platform's name or vendor contains \"no-such-platform\" \\(the platforms: \"Portable Computing Language\", vendor \"The pocl project\"\\)")
    message(FATAL_ERROR "the refusal does not list the platforms and vendors: '${err}'")
  endif()
  return()
endif()

if(CASE STREQUAL "text")
  run_cli(TRUE --json --local-size 64 --repeat 1)
  string(JSON max GET "${out}" 0 opencl_c_max)
  if(max LESS 100)
    message(FATAL_ERROR "opencl_c_max unreadable: ${max}")
  endif()
  math(EXPR major "${max} / 100")
  math(EXPR minor "${max} / 10 % 10")
  run_cli(TRUE --local-size 64 --repeat 1)
  if(NOT out MATCHES "\n    OpenCL C up to ${major}\\.${minor}, [0-9]+ compute units, atomics path ")
    message(FATAL_ERROR "the table does not say \"OpenCL C up to ${major}.${minor}\" (opencl_c_max ${max}):\n${out}")
  endif()
  return()
endif()

run_cli(TRUE --json --local-size 64,256 --local-mem 0,1024 --repeat 2)
string(JSON devices LENGTH "${out}")
if(devices LESS 1)
  message(FATAL_ERROR "no device in the JSON:\n${out}")
endif()
foreach(field platform device opencl_c atomics_path device_version
              platform_version)
  string(JSON value GET "${out}" 0 ${field})
  if(value STREQUAL "")
    message(FATAL_ERROR "empty ${field}")
  endif()
endforeach()
# The self-test's runs end with the path chosen, and agree with it.
string(JSON runs LENGTH "${out}" 0 self_test_runs)
if(runs LESS 1)
  message(FATAL_ERROR "no self_test_runs:\n${out}")
endif()
math(EXPR last "${runs} - 1")
string(JSON run_path GET "${out}" 0 self_test_runs ${last} path)
string(JSON path GET "${out}" 0 atomics_path)
string(JSON run_reads GET "${out}" 0 self_test_runs ${last} wrong_reads)
string(JSON reads GET "${out}" 0 self_test_errors)
if(NOT run_path STREQUAL path OR NOT run_reads EQUAL reads)
  message(FATAL_ERROR "the last self-test run (${run_path}, ${run_reads} "
                      "wrong reads) is not the path chosen (${path}, ${reads}):\n${out}")
endif()
string(JSON rows LENGTH "${out}" 0 occupancy)
if(NOT rows EQUAL 4)
  message(FATAL_ERROR "expected 4 occupancy rows (2 sizes x 2 memories):\n${out}")
endif()
foreach(i RANGE 3)
  foreach(field local_size local_mem groups_min groups_median groups_max time_ms)
    string(JSON value GET "${out}" 0 occupancy ${i} ${field})
  endforeach()
  string(JSON lo GET "${out}" 0 occupancy ${i} groups_min)
  string(JSON hi GET "${out}" 0 occupancy ${i} groups_max)
  if(lo LESS 1 OR hi LESS lo)
    message(FATAL_ERROR "bad group counts in row ${i}:\n${out}")
  endif()
endforeach()

run_cli(TRUE --help)
if(NOT out MATCHES "--local-size")
  message(FATAL_ERROR "--help does not document --local-size")
endif()
run_cli(TRUE --version)
if(NOT out MATCHES "^xwg-discover [0-9]+\\.[0-9]+\\.[0-9]+")
  message(FATAL_ERROR "bad --version: ${out}")
endif()
run_cli(FALSE --local-size 0)
run_cli(FALSE --local-size abc)
run_cli(FALSE --repeat)
run_cli(FALSE --bogus)
run_cli(FALSE --platform 99)
