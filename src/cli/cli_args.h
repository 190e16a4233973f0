/*
 * cli_args.h - the command line of xwg-discover.
 */
#ifndef XWG_CLI_ARGS_H
#define XWG_CLI_ARGS_H

#include <stddef.h>

#define CLI_MAX_LIST 16
#define CLI_LOCAL_MEM_MAX ((unsigned long long)-1) /* "max" in --local-mem */

typedef struct cli_args {
    int platform;  /* -1: every platform */
    const char *platform_name; /* NULL, or a part of its name or vendor */
    int device;    /* -1: every device */
    size_t local_sizes[CLI_MAX_LIST];
    size_t n_local_sizes;
    unsigned long long local_mems[CLI_MAX_LIST];
    size_t n_local_mems;
    int repeat;
    int json;
    int protocol;      /* 0 default, 1 ticket, 2 window */
    unsigned window_us; /* 0: the device's default */
    int help, version;
} cli_args;

/* Parses argv; on error returns non-zero with a one-line message in err. */
int cli_parse(int argc, char **argv, cli_args *args, char *err,
              size_t err_size);

extern const char cli_usage[];

#endif
