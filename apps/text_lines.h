/*
 * text_lines.h - line by line through an application's input file (Matrix
 * Market, DIMACS), with the line numbers that error messages name.
 */
#ifndef XWG_APPS_TEXT_LINES_H
#define XWG_APPS_TEXT_LINES_H

#include <stdio.h>
#include <string.h>

typedef struct text_lines {
    FILE *f;
    const char *path;
    unsigned long line; /* the number of the line last returned */
    char buf[512];
} text_lines;

/* The next line, past its leading blanks, or NULL: at the end of the file
 * (err left as it was), or at a line longer than the buffer (err then
 * names it). */
static inline char *text_next_line(text_lines *t, char *err,
                                   unsigned err_size)
{
    if (!fgets(t->buf, sizeof t->buf, t->f))
        return NULL;
    t->line++;
    if (strchr(t->buf, '\n') == NULL && !feof(t->f)) {
        snprintf(err, err_size, "%s:%lu: line longer than %zu characters",
                 t->path, t->line, sizeof t->buf - 2);
        return NULL;
    }
    return t->buf + strspn(t->buf, " \t\r");
}

#endif
