# litmus_test.cmake - what xwg-litmus must show on PoCL (x86 allows store
# buffering). Run as: cmake -DLITMUS=path -DMODE=weak|fences|control -P ...
#   weak     SB with no fence, threads in two groups: the weak outcome is
#            seen at least once (the harness can see weak behaviour);
#   fences   every test with the device and system fences: no forbidden
#            outcome is ever seen;
#   control  the KNOWN-BAD harness whose threads never overlap: no weak
#            outcome at all, even where it is allowed.
if(MODE STREQUAL "weak")
  set(args --tests sb --placements inter --fences none --iterations 300)
elseif(MODE STREQUAL "fences")
  set(args --fences device,system --iterations 60)
else()
  set(args --tests sb,mp,lb --placements inter --fences none --iterations 100
      --no-overlap)
endif()
execute_process(COMMAND ${LITMUS} ${args} --json RESULT_VARIABLE rc
                OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 600)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "xwg-litmus failed (${rc}): ${err}")
endif()
string(JSON rows LENGTH "${out}")
if(rows LESS 1)
  message(FATAL_ERROR "no rows:\n${out}")
endif()
math(EXPR last "${rows} - 1")
set(total_weak 0)
set(total_runs 0)
foreach(i RANGE ${last})
  string(JSON weak GET "${out}" ${i} weak)
  string(JSON runs GET "${out}" ${i} runs)
  string(JSON is GET "${out}" ${i} weak_is)
  string(JSON test GET "${out}" ${i} test)
  string(JSON fence GET "${out}" ${i} fence)
  string(JSON place GET "${out}" ${i} placement)
  message(STATUS "${test} ${place} ${fence}: ${weak} weak of ${runs} (${is})")
  math(EXPR total_weak "${total_weak} + ${weak}")
  math(EXPR total_runs "${total_runs} + ${runs}")
  if(MODE STREQUAL "fences" AND is STREQUAL "forbidden" AND weak GREATER 0)
    message(FATAL_ERROR "forbidden outcome seen: ${test} ${place} ${fence}")
  endif()
endforeach()
if(total_runs LESS 1000)
  message(FATAL_ERROR "only ${total_runs} instances ran: nothing was tested")
endif()
if(MODE STREQUAL "weak" AND total_weak EQUAL 0)
  message(FATAL_ERROR "SB's weak outcome never seen: the harness cannot see weak behaviour")
endif()
if(MODE STREQUAL "control" AND total_weak GREATER 0)
  message(FATAL_ERROR "weak outcomes with threads that never overlap")
endif()
