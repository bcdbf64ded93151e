// SPDX-License-Identifier: MIT
/* ASCII box tables: measuring columns and drawing rules and rows, for every table we print. */
#include <errno.h>
#include <stdarg.h>
#include <string.h>

#include "box.h"

void pb_box_cell(char *cell, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cell, size, fmt, ap);
	va_end(ap);
}

void pb_box_fit(struct pb_box_col *cols, unsigned int ncols, const void *rows, size_t row_size,
		size_t cell_size, unsigned int nrows)
{
	unsigned int c, i;

	for (c = 0; c < ncols; c++) {
		if (strlen(cols[c].head) > cols[c].width)
			cols[c].width = strlen(cols[c].head);
		for (i = 0; i < nrows; i++) {
			const char *cell = (const char *)rows + i * row_size + c * cell_size;
			size_t len = strnlen(cell, cell_size);

			if (len > cols[c].width)
				cols[c].width = len;
		}
	}
}

void pb_box_rule(FILE *f, const struct pb_box_col *cols, unsigned int ncols)
{
	unsigned int c;
	size_t k;

	fputc('+', f);
	for (c = 0; c < ncols; c++) {
		if (cols[c].hidden)
			continue;
		for (k = 0; k < cols[c].width + 2; k++)
			fputc('-', f);
		fputc('+', f);
	}
	fputc('\n', f);
}

static void pb_box_cell_print(FILE *f, const struct pb_box_col *col, const char *text)
{
	if (col->left)
		fprintf(f, " %-*s |", (int)col->width, text);
	else
		fprintf(f, " %*s |", (int)col->width, text);
}

void pb_box_head(FILE *f, const struct pb_box_col *cols, unsigned int ncols)
{
	unsigned int c;

	fputc('|', f);
	for (c = 0; c < ncols; c++)
		if (!cols[c].hidden)
			pb_box_cell_print(f, &cols[c], cols[c].head);
	fputc('\n', f);
}

void pb_box_row(FILE *f, const struct pb_box_col *cols, unsigned int ncols, const void *row,
		size_t cell_size)
{
	unsigned int c;

	fputc('|', f);
	for (c = 0; c < ncols; c++)
		if (!cols[c].hidden)
			pb_box_cell_print(f, &cols[c], (const char *)row + c * cell_size);
	fputc('\n', f);
}

void pb_box_span(FILE *f, const struct pb_box_col *cols, unsigned int ncols, const char *text)
{
	size_t inner = 0;
	unsigned int c;

	for (c = 0; c < ncols; c++)
		if (!cols[c].hidden)
			inner += cols[c].width + 3;
	fprintf(f, "| %-*s |\n", (int)(inner - 3), text);
}

void pb_box_table(FILE *f, struct pb_box_col *cols, unsigned int ncols, const void *rows,
		  size_t row_size, size_t cell_size, unsigned int nrows)
{
	unsigned int i;

	pb_box_fit(cols, ncols, rows, row_size, cell_size, nrows);
	pb_box_rule(f, cols, ncols);
	pb_box_head(f, cols, ncols);
	pb_box_rule(f, cols, ncols);
	for (i = 0; i < nrows; i++)
		pb_box_row(f, cols, ncols, (const char *)rows + i * row_size, cell_size);
	pb_box_rule(f, cols, ncols);
}

int pb_stream_status(FILE *f)
{
	if (fflush(f))
		return -errno;
	return ferror(f) ? -EIO : 0;
}
