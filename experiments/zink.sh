#!/usr/bin/env bash
# experiments/zink.sh STEP - xwg on Mesa rusticl over Zink over NVIDIA's
# Vulkan driver, on the GPU machine. Needs, in ignored folders carried to it:
#   .zink/  a bundle of Debian trixie's Mesa 25.0.7 rusticl with its own
#           glibc and loader (the GPU machine's userland is older), whose
#           run.sh runs a program with the ICD loader pointed at rusticl
#           alone (RUSTICL_ENABLE=swrast GALLIUM_DRIVER=zink
#           RUSTICL_DEVICE_TYPE=gpu: that machine has no /dev/dri);
#   .gl/    the .debs of libvulkan1 libegl1 libglvnd0 libopengl0 libgl1
#           libglx0 libgles2 (amd64), unpacked into / below.
# Writes $OUT/zink-STEP.txt.
#   why     what the stack needs for data written before a barrier to be
#           seen after it: visibility_driver's matrix at 64 and 256
#           work-items, on the cl20 and cl12 paths, with NVIDIA's own
#           OpenCL beside it as the control, the stress driver at full
#           occupancy, and the SPIR-V that Zink hands to the Vulkan
#           driver (zink-spirv.tar.gz);
#   verdict what xwg-discover, the sort and Jacobi examples and the stress
#           driver say there, and the same on NVIDIA's OpenCL;
#   study   the study's figures there: the self-test verdict, and with the
#           cl20 path forced past it, discovery, the sort, the stress
#           driver and the message-passing litmus tests.
set -uo pipefail
source "$(dirname "$0")/../scripts/experiment_prologue.sh" || exit 1
step=${1:-why}
log="$out/zink-$step.txt"
source "$root/scripts/nvidia_setup.sh" || exit 1
cmake --build /tmp/xwg-build --target visibility_driver >/dev/null || exit 1
zink_setup
zink="bash .zink/run.sh"
b=/tmp/xwg-build
{
  $zink clinfo -l
  case "$step" in
  why)
    echo "== zink, default path, 64 work-items, every variant at 8 groups"
    XWG_TRACE=1 timeout 150 $zink $b/visibility_driver --local-size 64 \
        --groups 2,8,33,132,528,1056,4224 --episodes 200 --matrix 8 2>&1 |
        grep -v 'discovery:\|launch:'
    echo "== zink, default path, 256 work-items, every variant at 33 groups"
    timeout 150 $zink $b/visibility_driver --local-size 256 \
        --groups 2,33,132,264,1056 --episodes 200 --matrix 33
    echo "== zink, default path, 1056 groups of 256, longer"
    timeout 100 $zink $b/visibility_driver --local-size 256 \
        --groups 1056 --episodes 5000 --launches 4
    echo "== zink, the stress driver's counter at full occupancy"
    XWG_SELF_TEST=report timeout 100 $zink $b/barrier_driver --local-size 256 \
        --episodes 5000 --launches 2 --only stress --algo counter
    echo "== zink, cl12, 256 work-items, every variant at 2 groups"
    XWG_ATOMICS=cl12 timeout 120 $zink $b/visibility_driver --local-size 256 \
        --groups 2,33 --episodes 100 --launches 2 --matrix 2
    echo "== NVIDIA's OpenCL (the control), 256 work-items"
    timeout 120 $b/visibility_driver --platform-name NVIDIA --local-size 256 \
        --groups 2,33,264,1056 --episodes 200 --matrix 33
    echo "== the SPIR-V that Zink hands to the driver, every variant in order"
    mkdir -p /tmp/spv && (cd /tmp/spv && ZINK_DEBUG=spirv timeout 100 \
        bash "$OLDPWD/.zink/run.sh" $b/visibility_driver --local-size 64 \
        --groups 2 --episodes 2 --launches 1 --matrix 2 >/dev/null)
    tar -C /tmp -czf "$out/zink-spirv.tar.gz" spv
    ;;
  verdict)
    for where in zink nvidia; do
      if [ $where = zink ]; then run=$zink; pick=""; else run=""; pick=NVIDIA; fi
      echo "== $where: xwg-discover"
      XWG_TRACE=1 timeout 60 $run $b/xwg-discover ${pick:+--platform-name $pick} 2>&1 |
          grep -v 'discovery:\|launch:\|clBuildProgram'
      echo "== $where: a sort of 20000 ints, 256 work-items"
      timeout 40 $run $b/examples/xwg-example-sort "$pick" 20000 256
      echo "(exit status $?)"
      echo "== $where: the Jacobi example"
      timeout 40 $run $b/examples/xwg-example-jacobi $pick
      echo "(exit status $?)"
      echo "== $where: the stress driver, 256 work-items"
      timeout 80 $run $b/barrier_driver ${pick:+--platform-name $pick} \
          --local-size 256 --episodes 20000 --launches 2 --only stress
      echo "(exit status $?)"
    done
    echo "== zink: the sort forced past the self-test (what it would return)"
    XWG_SELF_TEST=report timeout 30 $zink $b/examples/xwg-example-sort "" 20000 256
    echo "(exit status $?)"
    echo "== zink: the sort with the cl12 path forced"
    XWG_ATOMICS=cl12 timeout 30 $zink $b/examples/xwg-example-sort "" 20000 256
    echo "(exit status $?)"
    ;;
  study)
    echo "== zink: xwg-discover (self-test verdict; discovery on the path kept)"
    timeout 60 $zink $b/xwg-discover
    echo "(exit status $?)"
    export XWG_ATOMICS=cl20 XWG_SELF_TEST=report
    echo "== zink, cl20 forced past its self-test: xwg-discover"
    timeout 60 $zink $b/xwg-discover
    echo "== zink, cl20 forced: the sort (what xwg would return unrefused)"
    timeout 40 $zink $b/examples/xwg-example-sort "" 20000 256
    echo "== zink, cl20 forced: the stress driver, 256 work-items"
    timeout 90 $zink $b/barrier_driver --local-size 256 --episodes 20000 \
        --launches 2 --only stress
    echo "== zink, cl20 forced: litmus MP with atomic and with plain data"
    timeout 120 $zink $b/xwg-litmus --tests mp,mp+plain --placements inter \
        --iterations 20
    unset XWG_ATOMICS XWG_SELF_TEST
    ;;
  esac
} > "$log" 2>&1
cat "$log"
