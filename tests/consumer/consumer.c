/*
 * consumer.c - a minimal program built against the *installed* xwg, to prove
 * that the installed header, library, CMake package and pkg-config file are
 * usable from outside the source tree. It needs no OpenCL device: it only
 * calls the version and status functions. Exits 0 on success, 1 on failure.
 */
#include <xwg_barrier.h> /* must be found through the install prefix */

#include <stdio.h>
#include <string.h>

/* Counts failed checks; each failure is reported on stderr. */
static int failures = 0;

static void check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "consumer: FAIL: %s\n", what);
        failures++;
    }
}

int main(void)
{
    printf("xwg version %s\n", xwg_version_string());

    /* The library linked at run time must match the header compiled in. */
    check(xwg_version() == XWG_VERSION_HEX,
          "xwg_version() == XWG_VERSION_HEX");

    /* xwg's own codes have a message... */
    const char *msg = xwg_status_string(XWG_ERROR_NO_STATE_ARG);
    check(msg != NULL && msg[0] != '\0',
          "xwg_status_string(XWG_ERROR_NO_STATE_ARG) is non-empty");

    /* ...and OpenCL's codes pass through with their symbolic names. */
    const char *name = xwg_status_name(CL_INVALID_VALUE);
    check(name != NULL && strcmp(name, "CL_INVALID_VALUE") == 0,
          "xwg_status_name(CL_INVALID_VALUE) == \"CL_INVALID_VALUE\"");

    if (failures != 0)
        return 1;
    puts("consumer: OK");
    return 0;
}
