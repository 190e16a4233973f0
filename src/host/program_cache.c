/*
 * program_cache.c - built programs kept on disk, for processes that build
 * the same program again: a test suite, a tool run once per input.
 *
 * Opt-in: with XWG_PROGRAM_CACHE=DIR in the environment, xwg_program_build
 * looks in DIR before it compiles, and stores what it compiled. Intel's
 * CPU runtime takes a second or more to compile the kernel-side library
 * and keeps nothing between processes. PoCL keeps a cache of its own,
 * and is left to it (cache_dir).
 *
 * An entry is one file, DIR/<hash of the key>.xwgbin:
 *     "xwg-program-cache 2\n"
 *     key length (8 bytes, this host's order), key
 *     binary length (8 bytes), binary (CL_PROGRAM_BINARIES, the device's)
 *     count (8 bytes), then per kernel with an XWG_STATE parameter: its
 *         name's length (8 bytes), name, the parameter's index and the
 *         program's barrier set (4 bytes each)
 * The key is everything that decides the binary: the device's name and
 * version, the driver's version, the platform's name and version, the
 * build options and the whole source, each NUL-terminated. A hit compares
 * the key byte for byte, never the hash alone, so two programs whose keys
 * hash alike miss each other rather than swap binaries.
 *
 * The kernels' state parameters are stored because a launch finds its
 * parameter by name (kernel_args.c), and Intel's runtime keeps no argument
 * info in a binary. A program loaded so has them recorded, for this
 * process, by its handle and each kernel's name: not retained, since the
 * caller owns the program alone, so a handle freed and reused by another
 * program loaded from the cache has its records replaced at that load.
 * What a record cannot tell apart is a program made elsewhere without
 * argument info (clCreateProgramWithBinary) at a reused handle, with a
 * kernel of the same name and at least as many parameters: such a
 * kernel was refused before (XWG_ERROR_NO_STATE_ARG), and is launched
 * with the recorded parameter now.
 *
 * Invariants:
 *   - the cache never makes a build fail: an entry that is missing, short,
 *     another key's, or that the driver refuses is a miss, and the program
 *     is compiled from source and its entry written again;
 *   - a reader never sees half an entry: an entry is written under a name
 *     of this process's own and renamed into place, which is atomic on
 *     POSIX file systems, so concurrent builds of one program (ctest -j)
 *     leave one whole entry, whichever rename came last;
 *   - only successful builds are stored, so a build that fails always
 *     fails the same way, with its log.
 */
#include "internal.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAGIC "xwg-program-cache 2\n"
#define NAME_MAX_BYTES 256 /* a longer kernel name is not stored */

/* A kernel's XWG_STATE parameter in a program loaded without argument
 * info. */
typedef struct {
    cl_program program; /* not retained: the handle, for lookup */
    char *kernel;       /* the kernel's name, malloc'd */
    cl_uint index;      /* the parameter's */
    unsigned set;       /* the program's barrier set */
} loaded_arg;

/* Every record of this process, under loaded_lock. Records live until the
 * process ends (a few dozen bytes each; one load replaces its handle's). */
static loaded_arg *loaded;
static size_t loaded_len, loaded_cap;
static pthread_mutex_t loaded_lock = PTHREAD_MUTEX_INITIALIZER;

/* The cache folder, or NULL when the environment names none or ctx's
 * platform is PoCL. PoCL keeps every compile in a cache of its own, and
 * its CL_PROGRAM_BINARIES compiles each kernel once more: with its own
 * cache cold, collectives_pocl_64_counter took 61 s without this cache
 * and 123 s with it empty (35 s with it full), so it is left to PoCL's. */
static const char *cache_dir(const xwg_context *ctx)
{
    const char *dir = getenv("XWG_PROGRAM_CACHE");
    if (dir == NULL || dir[0] == '\0' ||
        strstr(ctx->info.platform_name, "Portable Computing Language") != NULL)
        return NULL;
    return dir;
}

/* ---- The key ----------------------------------------------------------- */

/* Appends text and its NUL to key (grown with realloc). 0 when out of
 * memory, key then freed. */
static int append(char **key, size_t *len, const char *text)
{
    size_t n = strlen(text) + 1;
    char *grown = realloc(*key, *len + n);
    if (grown == NULL) {
        free(*key);
        *key = NULL;
        return 0;
    }
    memcpy(grown + *len, text, n);
    *key = grown;
    *len += n;
    return 1;
}

static void device_text(cl_device_id device, cl_device_info what, char *buf,
                        size_t size)
{
    if (clGetDeviceInfo(device, what, size, buf, NULL) != CL_SUCCESS)
        buf[0] = '\0';
    buf[size - 1] = '\0';
}

/* The key of (ctx's device, options, source), malloc'd; NULL when out of
 * memory. */
static char *make_key(const xwg_context *ctx, const char *source,
                      const char *options, size_t *len)
{
    char device_name[256], device_version[256], driver[256];
    char platform_version[256];
    device_text(ctx->device, CL_DEVICE_NAME, device_name, sizeof device_name);
    device_text(ctx->device, CL_DEVICE_VERSION, device_version,
                sizeof device_version);
    device_text(ctx->device, CL_DRIVER_VERSION, driver, sizeof driver);
    cl_platform_id platform = NULL;
    if (clGetDeviceInfo(ctx->device, CL_DEVICE_PLATFORM, sizeof platform,
                        &platform, NULL) != CL_SUCCESS ||
        clGetPlatformInfo(platform, CL_PLATFORM_VERSION,
                          sizeof platform_version, platform_version,
                          NULL) != CL_SUCCESS)
        platform_version[0] = '\0';
    platform_version[sizeof platform_version - 1] = '\0';
    char *key = NULL;
    *len = 0;
    if (append(&key, len, device_name) && append(&key, len, device_version) &&
        append(&key, len, driver) &&
        append(&key, len, ctx->info.platform_name) &&
        append(&key, len, platform_version) && append(&key, len, options) &&
        append(&key, len, source))
        return key;
    return NULL;
}

/* DIR/<FNV-1a 64 of key>.xwgbin, malloc'd; NULL when out of memory. */
static char *entry_path(const char *dir, const char *key, size_t len)
{
    uint64_t hash = 14695981039346656037ull;
    for (size_t i = 0; i < len; i++)
        hash = (hash ^ (unsigned char)key[i]) * 1099511628211ull;
    size_t size = strlen(dir) + 32;
    char *path = malloc(size);
    if (path != NULL)
        snprintf(path, size, "%s/%016llx.xwgbin", dir,
                 (unsigned long long)hash);
    return path;
}

/* ---- An entry ---------------------------------------------------------- */

typedef struct {
    unsigned char *binary;
    size_t size;
    loaded_arg *args; /* .program unset; .kernel malloc'd */
    size_t args_len;
} entry;

static void entry_free(entry *e)
{
    for (size_t i = 0; i < e->args_len; i++)
        free(e->args[i].kernel);
    free(e->args);
    free(e->binary);
    memset(e, 0, sizeof *e);
}

/* Reads `bytes` of f into a new allocation; NULL on a short file, a size
 * past `limit`, or no memory. */
static void *read_block(FILE *f, uint64_t bytes, uint64_t limit)
{
    if (bytes == 0 || bytes > limit)
        return NULL;
    void *p = malloc((size_t)bytes);
    if (p != NULL && fread(p, 1, (size_t)bytes, f) != bytes) {
        free(p);
        return NULL;
    }
    return p;
}

static int read_u64(FILE *f, uint64_t *v)
{
    return fread(v, sizeof *v, 1, f) == 1;
}

/* The state parameters that follow the binary. 1 when all were read. */
static int read_args(FILE *f, entry *e)
{
    uint64_t count;
    if (!read_u64(f, &count) || count > 4096)
        return 0;
    e->args = count ? calloc((size_t)count, sizeof *e->args) : NULL;
    if (count && e->args == NULL)
        return 0;
    for (; e->args_len < count; e->args_len++) {
        loaded_arg *a = &e->args[e->args_len];
        uint64_t name_len;
        uint32_t index_set[2];
        if (!read_u64(f, &name_len) ||
            (a->kernel = read_block(f, name_len + 1, NAME_MAX_BYTES)) ==
                NULL ||
            a->kernel[name_len] != '\0' ||
            fread(index_set, sizeof index_set, 1, f) != 1)
            return 0;
        a->index = index_set[0];
        a->set = index_set[1];
    }
    return 1;
}

/* The entry at path when it is a whole entry for key; 0 otherwise. */
static int read_entry(const char *path, const char *key, size_t len,
                      entry *e)
{
    memset(e, 0, sizeof *e);
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return 0;
    char magic[sizeof MAGIC - 1];
    uint64_t key_len = 0, binary_len = 0;
    char *stored = NULL;
    int ok = fread(magic, 1, sizeof magic, f) == sizeof magic &&
             memcmp(magic, MAGIC, sizeof magic) == 0 &&
             read_u64(f, &key_len) && key_len == len &&
             (stored = read_block(f, len, len)) != NULL &&
             memcmp(stored, key, len) == 0 && read_u64(f, &binary_len) &&
             (e->binary = read_block(f, binary_len, (uint64_t)1 << 31)) !=
                 NULL &&
             read_args(f, e) &&
             fgetc(f) == EOF; /* nothing after: not a longer, other file */
    e->size = (size_t)binary_len;
    free(stored);
    fclose(f);
    if (!ok)
        entry_free(e);
    return ok;
}

/* ---- Loading ----------------------------------------------------------- */

/* Every kernel of program into *kernels (malloc'd; NULL for none), their
 * count in *n. 0 when they cannot be made (then nothing to release).
 * kernels_release gives them back. */
static int program_kernels(cl_program program, cl_kernel **kernels,
                           cl_uint *n)
{
    *kernels = NULL;
    *n = 0;
    if (clCreateKernelsInProgram(program, 0, NULL, n) != CL_SUCCESS)
        return 0;
    if (*n == 0)
        return 1;
    /* All of them: the call refuses room for fewer than the program has. */
    *kernels = calloc(*n, sizeof **kernels);
    if (*kernels != NULL &&
        clCreateKernelsInProgram(program, *n, *kernels, NULL) == CL_SUCCESS)
        return 1;
    free(*kernels);
    *kernels = NULL;
    *n = 0;
    return 0;
}

static void kernels_release(cl_kernel *kernels, cl_uint n)
{
    for (cl_uint i = 0; kernels != NULL && i < n; i++)
        clReleaseKernel(kernels[i]);
    free(kernels);
}

/* Whether the program's kernels answer CL_KERNEL_ARG_NAME: then a launch
 * finds its parameter as in any program, and nothing need be recorded. */
static int has_arg_info(cl_program program)
{
    cl_kernel *kernels;
    cl_uint n;
    if (!program_kernels(program, &kernels, &n))
        return 0; /* cannot tell: record, to be safe */
    if (n == 0)
        return 1; /* no kernel: nothing to find */
    cl_uint args = 0;
    size_t bytes = 0; /* the size alone: no buffer can be too small */
    int info = clGetKernelInfo(kernels[0], CL_KERNEL_NUM_ARGS, sizeof args,
                               &args, NULL) == CL_SUCCESS &&
               (args == 0 ||
                clGetKernelArgInfo(kernels[0], 0, CL_KERNEL_ARG_NAME, 0, NULL,
                                   &bytes) != CL_KERNEL_ARG_INFO_NOT_AVAILABLE);
    kernels_release(kernels, n);
    return info;
}

/* Records program's state parameters, in place of any that an earlier
 * program at the same handle left. 0 when out of memory (nothing
 * recorded). */
static int record_args(cl_program program, entry *e)
{
    pthread_mutex_lock(&loaded_lock);
    size_t kept = 0;
    for (size_t i = 0; i < loaded_len; i++) {
        if (loaded[i].program == program)
            free(loaded[i].kernel);
        else
            loaded[kept++] = loaded[i];
    }
    loaded_len = kept;
    int ok = 1;
    if (loaded_len + e->args_len > loaded_cap) {
        size_t cap = loaded_cap ? 2 * loaded_cap : 16;
        while (cap < loaded_len + e->args_len)
            cap *= 2;
        loaded_arg *grown = realloc(loaded, cap * sizeof *grown);
        ok = grown != NULL;
        if (ok) {
            loaded = grown;
            loaded_cap = cap;
        }
    }
    for (size_t i = 0; ok && i < e->args_len; i++) {
        loaded[loaded_len] = e->args[i];
        loaded[loaded_len++].program = program;
        e->args[i].kernel = NULL; /* the record owns it now */
    }
    pthread_mutex_unlock(&loaded_lock);
    return ok;
}

cl_program xwg__cache_load(const xwg_context *ctx, const char *source,
                           const char *options)
{
    const char *dir = cache_dir(ctx);
    if (dir == NULL)
        return NULL;
    size_t len = 0;
    char *key = make_key(ctx, source, options, &len);
    char *path = key != NULL ? entry_path(dir, key, len) : NULL;
    entry e;
    int found = path != NULL && read_entry(path, key, len, &e);
    free(key);
    cl_program program = NULL;
    if (found) {
        const unsigned char *binaries[] = {e.binary};
        cl_int status = CL_SUCCESS, err = CL_SUCCESS;
        program = clCreateProgramWithBinary(ctx->cl, 1, &ctx->device, &e.size,
                                            binaries, &status, &err);
        /* A binary still needs its build, with the same options; and
         * where it lost the argument info, its kernels' parameters are
         * recorded, or it is no hit. */
        if (program != NULL &&
            (status != CL_SUCCESS ||
             clBuildProgram(program, 1, &ctx->device, options, NULL, NULL) !=
                 CL_SUCCESS ||
             (!has_arg_info(program) && !record_args(program, &e)))) {
            clReleaseProgram(program);
            program = NULL;
        }
        entry_free(&e);
    }
    XWG__TRACE("program cache: %s %s", program != NULL ? "hit" : "miss",
               path != NULL ? path : "(out of memory)");
    free(path);
    return program;
}

int xwg__cache_state_arg(cl_kernel kernel, cl_uint *index, unsigned *set)
{
    cl_program program = NULL;
    char name[NAME_MAX_BYTES];
    cl_uint args = 0;
    if (clGetKernelInfo(kernel, CL_KERNEL_PROGRAM, sizeof program, &program,
                        NULL) != CL_SUCCESS ||
        clGetKernelInfo(kernel, CL_KERNEL_FUNCTION_NAME, sizeof name, name,
                        NULL) != CL_SUCCESS ||
        clGetKernelInfo(kernel, CL_KERNEL_NUM_ARGS, sizeof args, &args,
                        NULL) != CL_SUCCESS)
        return 0;
    int found = 0;
    pthread_mutex_lock(&loaded_lock);
    for (size_t i = 0; i < loaded_len && !found; i++) {
        const loaded_arg *a = &loaded[i];
        if (a->program == program && a->index < args &&
            strcmp(a->kernel, name) == 0) {
            *index = a->index;
            *set = a->set;
            found = 1;
        }
    }
    pthread_mutex_unlock(&loaded_lock);
    return found;
}

/* ---- Storing ----------------------------------------------------------- */

/* The binary of program for ctx's device, into e; 0 if the driver gives
 * none. */
static int program_binary(const xwg_context *ctx, cl_program program,
                          entry *e)
{
    cl_uint devices = 0;
    if (clGetProgramInfo(program, CL_PROGRAM_NUM_DEVICES, sizeof devices,
                         &devices, NULL) != CL_SUCCESS || devices == 0)
        return 0;
    cl_device_id *ids = calloc(devices, sizeof *ids);
    size_t *sizes = calloc(devices, sizeof *sizes);
    unsigned char **binaries = calloc(devices, sizeof *binaries);
    cl_uint at = devices;
    if (ids != NULL && sizes != NULL && binaries != NULL &&
        clGetProgramInfo(program, CL_PROGRAM_DEVICES, devices * sizeof *ids,
                         ids, NULL) == CL_SUCCESS &&
        clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES,
                         devices * sizeof *sizes, sizes, NULL) == CL_SUCCESS) {
        for (at = 0; at < devices && ids[at] != ctx->device; at++)
            ;
        /* Only this device's binary is fetched: the others stay NULL,
         * which the query skips. */
        if (at < devices && sizes[at] > 0 &&
            (binaries[at] = malloc(sizes[at])) != NULL &&
            clGetProgramInfo(program, CL_PROGRAM_BINARIES,
                             devices * sizeof *binaries, binaries,
                             NULL) == CL_SUCCESS) {
            e->binary = binaries[at];
            e->size = sizes[at];
            binaries[at] = NULL;
        }
    }
    if (binaries != NULL && at < devices)
        free(binaries[at]);
    free(binaries);
    free(sizes);
    free(ids);
    return e->binary != NULL;
}

/* The state parameters of program's kernels (built from source, so with
 * argument info), into e. 0 when they cannot be listed. */
static int program_args(cl_program program, entry *e)
{
    cl_kernel *kernels;
    cl_uint n;
    if (!program_kernels(program, &kernels, &n))
        return 0;
    e->args = n ? calloc(n, sizeof *e->args) : NULL;
    int ok = n == 0 || e->args != NULL;
    /* A kernel without XWG_STATE sets xwg_last_error(), which must still
     * say what it said before this successful build. */
    char said[512];
    snprintf(said, sizeof said, "%s", xwg_last_error());
    for (cl_uint i = 0; ok && i < n; i++) {
        char name[NAME_MAX_BYTES];
        loaded_arg *a = &e->args[e->args_len];
        ok = clGetKernelInfo(kernels[i], CL_KERNEL_FUNCTION_NAME, sizeof name,
                             name, NULL) == CL_SUCCESS;
        /* A kernel without XWG_STATE has nothing to record. */
        if (ok && xwg__find_state_arg(kernels[i], &a->index, &a->set) ==
                      XWG_SUCCESS) {
            ok = (a->kernel = malloc(strlen(name) + 1)) != NULL;
            if (ok) {
                strcpy(a->kernel, name);
                e->args_len++;
            }
        }
    }
    if (said[0] != '\0')
        xwg__set_last_error("%s", said);
    else
        xwg__clear_last_error();
    kernels_release(kernels, n);
    return ok;
}

static int write_entry(FILE *f, const char *key, size_t len, const entry *e)
{
    uint64_t key_len = len, binary_len = e->size, count = e->args_len;
    int ok = fwrite(MAGIC, 1, sizeof MAGIC - 1, f) == sizeof MAGIC - 1 &&
             fwrite(&key_len, sizeof key_len, 1, f) == 1 &&
             fwrite(key, 1, len, f) == len &&
             fwrite(&binary_len, sizeof binary_len, 1, f) == 1 &&
             fwrite(e->binary, 1, e->size, f) == e->size &&
             fwrite(&count, sizeof count, 1, f) == 1;
    for (size_t i = 0; ok && i < e->args_len; i++) {
        uint64_t name_len = strlen(e->args[i].kernel);
        uint32_t index_set[2] = {e->args[i].index, e->args[i].set};
        ok = fwrite(&name_len, sizeof name_len, 1, f) == 1 &&
             fwrite(e->args[i].kernel, 1, name_len + 1, f) == name_len + 1 &&
             fwrite(index_set, sizeof index_set, 1, f) == 1;
    }
    return ok;
}

void xwg__cache_store(const xwg_context *ctx, const char *source,
                      const char *options, cl_program program)
{
    const char *dir = cache_dir(ctx);
    if (dir == NULL)
        return;
    /* One level, as a cache folder is made; one that exists (EEXIST) is
     * the usual case. */
    if (mkdir(dir, 0777) != 0 && errno != EEXIST)
        return;
    size_t len = 0;
    char *key = make_key(ctx, source, options, &len);
    char *path = key != NULL ? entry_path(dir, key, len) : NULL;
    entry e = {0};
    int stored = 0;
    if (path != NULL && program_binary(ctx, program, &e) &&
        program_args(program, &e)) {
        /* A name of this process's own, renamed into place once whole. */
        static unsigned serial; /* two stores of one process apart */
        size_t tmp_size = strlen(path) + 32;
        char *tmp = malloc(tmp_size);
        FILE *f = NULL;
        if (tmp != NULL) {
            snprintf(tmp, tmp_size, "%s.%ld.%u", path, (long)getpid(),
                     __atomic_fetch_add(&serial, 1u, __ATOMIC_RELAXED));
            f = fopen(tmp, "wb");
        }
        if (f != NULL) {
            int ok = write_entry(f, key, len, &e);
            ok = fclose(f) == 0 && ok;
            stored = ok && rename(tmp, path) == 0;
            if (!stored)
                remove(tmp);
        }
        free(tmp);
    }
    XWG__TRACE("program cache: %s %s (%zu state parameters)",
               stored ? "stored" : "not stored",
               path != NULL ? path : "(out of memory)", e.args_len);
    entry_free(&e);
    free(path);
    free(key);
}
