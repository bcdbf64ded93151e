/* SPDX-License-Identifier: MIT */
/*
 * ASCII box tables (+----+ rules, | cells |), shared by the results table and compare's
 * table: each fills its own rows of cells and hands them here to be measured and drawn.
 */
#ifndef PB_BOX_H
#define PB_BOX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Flushes f, as every table ends: 0, or -errno if anything written to it failed. */
int pb_stream_status(FILE *f);

struct pb_box_col {
	const char *head;
	bool left;    /* text reads left to right; numbers align right so digits line up */
	bool hidden;  /* left out (a column that would be empty on every row) */
	size_t width; /* set by pb_box_fit */
};

/* printf into one cell of size bytes (truncated, never overflowing). */
void pb_box_cell(char *cell, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/*
 * Widens each column to its heading and to nrows rows of cells: row i's cell c starts at
 * rows + i * row_size + c * cell_size.
 */
void pb_box_fit(struct pb_box_col *cols, unsigned int ncols, const void *rows, size_t row_size,
		size_t cell_size, unsigned int nrows);
void pb_box_rule(FILE *f, const struct pb_box_col *cols, unsigned int ncols);
void pb_box_head(FILE *f, const struct pb_box_col *cols, unsigned int ncols);
/* One row: cell c starts at row + c * cell_size. */
void pb_box_row(FILE *f, const struct pb_box_col *cols, unsigned int ncols, const void *row,
		size_t cell_size);
/* A row of text spanning the whole table, as wide as a normal row. */
void pb_box_span(FILE *f, const struct pb_box_col *cols, unsigned int ncols, const char *text);
/* A whole table of nrows rows (laid out as for pb_box_fit): fitted, then head, rows, rules. */
void pb_box_table(FILE *f, struct pb_box_col *cols, unsigned int ncols, const void *rows,
		  size_t row_size, size_t cell_size, unsigned int nrows);

#endif
