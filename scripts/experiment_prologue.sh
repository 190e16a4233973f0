# experiment_prologue.sh - sourced first by every experiments/NAME.sh,
# right after its `set` line, on this machine and on the GPU machine alike
# (bash, no network); it sets no shell options of its own:
#   source "$(dirname "$0")/../scripts/experiment_prologue.sh" || exit 1
# It defines
#   root      the repository root, absolute;
#   out       the folder the experiment writes into: $OUT (scripts/run
#             exports it), else build/out under root; created;
#   platform  where the experiment runs: $XWG_RUN_PLATFORM (scripts/run
#             exports it), else local; anything but local or nvidia is
#             refused;
#   tmp       a temporary folder of the experiment's own, removed when it
#             exits;
#   icd_dir NAME, the folder to give OCL_ICD_VENDORS so that only the
#     OpenCL implementation NAME answers;
#   at_exit COMMAND, which runs COMMAND when the experiment exits: the
#     prologue holds the EXIT trap (and runs one set before it), so an
#     experiment adds to it this way instead of setting its own;
#   driver_csv FILE, which starts FILE with barrier_driver's CSV header
#     (the driver appends its rows under --csv and writes no header).
# The GPU machine's own setup is scripts/nvidia_setup.sh, which the nvidia
# branches source after this.
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd) || exit 1
out=${OUT:-$root/build/out}
mkdir -p "$out" || exit 1
platform=${XWG_RUN_PLATFORM:-local}
case $platform in
  local|nvidia) ;;
  *) echo "$0: XWG_RUN_PLATFORM is '$platform': local or nvidia" >&2; exit 2 ;;
esac

# The EXIT trap runs what at_exit added, in order, then removes $tmp. A
# trap set before the prologue is kept as the first of them.
tmp=$(mktemp -d "${TMPDIR:-/tmp}/xwg-experiment.XXXXXX") || exit 1
experiment__at_exit=$(trap -p EXIT)
[ -z "$experiment__at_exit" ] ||
  experiment__at_exit=$(eval "set -- $experiment__at_exit"; echo "$3")
at_exit() { experiment__at_exit+=${experiment__at_exit:+$'\n'}$1; }
trap 'eval "$experiment__at_exit" || :; rm -rf "$tmp"' EXIT

# icd_dir NAME prints the folder for OCL_ICD_VENDORS in which only NAME
# answers: for intel, build/intel-opencl/icd as scripts/setup.sh writes it;
# for none, an empty folder (Oclgrind preloads its own runtime, so nothing
# else may answer); for any other NAME (pocl, rusticl), a folder in $tmp
# holding a copy of /etc/OpenCL/vendors/NAME.icd alone. Where NAME is not
# installed it still prints the folder (empty, or absent for intel: a run
# pointed at it finds no platform) and fails, so that
# `if d=$(icd_dir NAME)` is also the test of whether NAME is there.
icd_dir() {
  case $1 in
    intel)
      echo "$root/build/intel-opencl/icd"
      [ -f "$root/build/intel-opencl/icd/intel.icd" ] ;;
    *)
      mkdir -p "$tmp/vendors/$1" || return 1
      echo "$tmp/vendors/$1"
      [ "$1" = none ] ||
        cp "/etc/OpenCL/vendors/$1.icd" "$tmp/vendors/$1/" 2>/dev/null ;;
  esac
}

# driver_csv FILE: FILE emptied to the header of barrier_driver's rows
# (tests/drivers/barrier_driver.c, its --csv).
driver_csv() {
  echo "label,device,path,test,variant,local_size,groups,episodes,errors,seconds,result,note" > "$1"
}
