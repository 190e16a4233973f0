/*
 * init_macros.c - every *_INIT macro of include/xwg_barrier.h, compiled
 * by tests/init_macros.cmake with -Wall -Wextra -Wpedantic -Werror (as C
 * and, where a C++ compiler is found, as C++).
 *
 * If it fails, a user who builds with -Wextra gets a warning from xwg's
 * own header: an _INIT macro leaves a field out (missing field
 * initializers), most often one added to its struct without adding it to
 * the macro. The library's own build turns that warning off, so only
 * this test sees it. init_macros.cmake also fails if an _INIT macro of
 * the header is missing here.
 */
#include <xwg_barrier.h>

int main(void)
{
    xwg_options options = XWG_OPTIONS_INIT;
    xwg_device_info device_info = XWG_DEVICE_INFO_INIT;
    xwg_occupancy occupancy = XWG_OCCUPANCY_INIT;
    xwg_launch_info launch_info = XWG_LAUNCH_INFO_INIT;
    xwg_launch_options launch_options = XWG_LAUNCH_OPTIONS_INIT;

    /* Each macro must also set the size its struct's contract needs. */
    return !(options.size == sizeof options &&
             device_info.size == sizeof device_info &&
             occupancy.size == sizeof occupancy &&
             launch_info.size == sizeof launch_info &&
             launch_options.size == sizeof launch_options);
}
