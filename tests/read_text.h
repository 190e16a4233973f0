/*
 * read_text.h - a whole file as a NUL-terminated string, for the test
 * drivers that read a kernel or a document from a path (racecheck_driver,
 * kernel_api_doc). Header-only: each driver is one C file.
 */
#ifndef XWG_TESTS_READ_TEXT_H
#define XWG_TESTS_READ_TEXT_H

#include <stdio.h>
#include <stdlib.h>

/* The file's bytes and a NUL, malloc'd (the caller frees it); NULL, with
 * perror's message, if it cannot be read. */
static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        perror(path);
        return NULL;
    }
    fseek(f, 0, SEEK_END);
    const long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = size >= 0 ? malloc((size_t)size + 1) : NULL;
    if (text != NULL && fread(text, 1, (size_t)size, f) == (size_t)size)
        text[size] = '\0';
    else {
        free(text);
        text = NULL;
    }
    fclose(f);
    return text;
}

#endif
