/*
 * cli_args.c - parsing the command line of xwg-discover.
 */
#include "cli_args.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char cli_usage[] =
    "usage: xwg-discover [options]\n"
    "Reports how many work-groups of a kernel are co-resident on each OpenCL\n"
    "device, by xwg's occupancy discovery protocol.\n"
    "\n"
    "  --platform N         only platform N (see the listing)\n"
    "  --platform-name S    only platforms whose name or vendor contains S\n"
    "                       (any case; 'pocl' is in PoCL's vendor)\n"
    "  --device N           only device N of each platform listed\n"
    "  --local-size L,...   work-group sizes (default 64,256,1024; capped at\n"
    "                       the device maximum)\n"
    "  --local-mem B,...    bytes of dynamic local memory per group (default\n"
    "                       0); 'max' is the device's limit less xwg's own use\n"
    "  --repeat N           discoveries per configuration (default 5)\n"
    "  --protocol P         ticket or window (default: the library's)\n"
    "  --window-us N        the discovery window in microseconds (default:\n"
    "                       the device's)\n"
    "  --json               print JSON instead of a table\n"
    "  --help, --version\n";

static int parse_ull(const char *s, unsigned long long *v)
{
    char *end;
    errno = 0;
    if (s[0] == '-' || s[0] == '\0')
        return -1;
    *v = strtoull(s, &end, 10);
    return (errno != 0 || *end != '\0') ? -1 : 0;
}

/* "64,256,max" into values; 'max' only where allow_max. */
static int parse_list(const char *s, unsigned long long *values, size_t *n,
                      int allow_max)
{
    char buf[256];
    if (strlen(s) >= sizeof buf)
        return -1;
    strcpy(buf, s);
    *n = 0;
    for (char *tok = strtok(buf, ","); tok != NULL; tok = strtok(NULL, ",")) {
        if (*n == CLI_MAX_LIST)
            return -1;
        if (allow_max && !strcmp(tok, "max"))
            values[(*n)++] = CLI_LOCAL_MEM_MAX;
        else if (parse_ull(tok, &values[*n]) == 0)
            (*n)++;
        else
            return -1;
    }
    return *n == 0 ? -1 : 0;
}

int cli_parse(int argc, char **argv, cli_args *a, char *err, size_t err_size)
{
    memset(a, 0, sizeof *a);
    a->platform = a->device = -1;
    a->repeat = 5;
    a->local_sizes[0] = 64, a->local_sizes[1] = 256, a->local_sizes[2] = 1024;
    a->n_local_sizes = 3;
    a->n_local_mems = 1; /* 0 bytes */

    for (int i = 1; i < argc; i++) {
        const char *opt = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        unsigned long long v = 0;
        if (!strcmp(opt, "--help") || !strcmp(opt, "-h")) {
            a->help = 1;
            continue;
        }
        if (!strcmp(opt, "--version")) {
            a->version = 1;
            continue;
        }
        if (!strcmp(opt, "--json")) {
            a->json = 1;
            continue;
        }
        if (val == NULL) {
            snprintf(err, err_size, "unknown option or missing value: %s",
                     opt);
            return -1;
        }
        i++;
        int bad = 0;
        if (!strcmp(opt, "--platform-name"))
            a->platform_name = val;
        else if (!strcmp(opt, "--platform"))
            bad = parse_ull(val, &v) || v > 1000, a->platform = (int)v;
        else if (!strcmp(opt, "--device"))
            bad = parse_ull(val, &v) || v > 1000, a->device = (int)v;
        else if (!strcmp(opt, "--repeat"))
            bad = parse_ull(val, &v) || v < 1 || v > 1000, a->repeat = (int)v;
        else if (!strcmp(opt, "--window-us"))
            bad = parse_ull(val, &v) || v < 1 || v > 100000000,
            a->window_us = (unsigned)v;
        else if (!strcmp(opt, "--protocol")) {
            a->protocol = !strcmp(val, "ticket")   ? 1
                          : !strcmp(val, "window") ? 2
                                                   : -1;
            bad = a->protocol < 0;
        } else if (!strcmp(opt, "--local-size")) {
            unsigned long long l[CLI_MAX_LIST];
            bad = parse_list(val, l, &a->n_local_sizes, 0);
            for (size_t k = 0; !bad && k < a->n_local_sizes; k++) {
                bad = l[k] == 0;
                a->local_sizes[k] = (size_t)l[k];
            }
        } else if (!strcmp(opt, "--local-mem")) {
            bad = parse_list(val, a->local_mems, &a->n_local_mems, 1);
        } else {
            snprintf(err, err_size, "unknown option: %s", opt);
            return -1;
        }
        if (bad) {
            snprintf(err, err_size, "bad value for %s: %s", opt, val);
            return -1;
        }
    }
    return 0;
}
