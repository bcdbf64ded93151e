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
	/*
	 * Fitting a narrow terminal (pb_box_fit_width): abbr is the heading used then (NULL: the
	 * same); drop > 0 lets the column go, the highest first (ties: the rightmost); 0 keeps it.
	 */
	const char *abbr;
	unsigned char drop;
	bool dropped; /* hidden by pb_box_fit_width */
};

/*
 * The columns a table may take on stdout: 0 (no limit) with wide; on a terminal its width
 * (TIOCGWINSZ, else $COLUMNS, else 80); off one $COLUMNS when set, else 0, so a pipe or a
 * file gets the full table scripts read.
 */
unsigned int pb_box_out_width(int fd, bool wide);

/* printf into one cell of size bytes (truncated, never overflowing). */
void pb_box_cell(char *cell, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/*
 * Widens each column to its heading and to nrows rows of cells: row i's cell c starts at
 * rows + i * row_size + c * cell_size.
 */
void pb_box_fit(struct pb_box_col *cols, unsigned int ncols, const void *rows, size_t row_size,
		size_t cell_size, unsigned int nrows);
/*
 * pb_box_fit, then, while the table is wider than width columns (0: no limit): the short
 * headings, then columns dropped by their drop rank, then the widest text column narrowed
 * (its cells cut). Returns how many columns it dropped.
 */
unsigned int pb_box_fit_width(struct pb_box_col *cols, unsigned int ncols, const void *rows,
			      size_t row_size, size_t cell_size, unsigned int nrows, size_t width);
/* Under a table pb_box_fit_width took columns from: which, and that --wide shows them. */
void pb_box_dropped_note(FILE *f, const struct pb_box_col *cols, unsigned int ncols, size_t width);
/* The width of the table as drawn: its rules' length. */
size_t pb_box_width(const struct pb_box_col *cols, unsigned int ncols);
void pb_box_rule(FILE *f, const struct pb_box_col *cols, unsigned int ncols);
void pb_box_head(FILE *f, const struct pb_box_col *cols, unsigned int ncols);
/* One row: cell c starts at row + c * cell_size. */
void pb_box_row(FILE *f, const struct pb_box_col *cols, unsigned int ncols, const void *row,
		size_t cell_size);
/* A row of text spanning the whole table, as wide as a normal row. */
void pb_box_span(FILE *f, const struct pb_box_col *cols, unsigned int ncols, const char *text);
/*
 * A whole table of nrows rows (laid out as for pb_box_fit): fitted to width (0: no limit),
 * then head, rows, rules.
 */
void pb_box_table(FILE *f, struct pb_box_col *cols, unsigned int ncols, const void *rows,
		  size_t row_size, size_t cell_size, unsigned int nrows, size_t width);
/*
 * Notes under a table: each line of the text, ended by a newline whether or not the text has
 * one, wrapped at width (0: not wrapped) with continued lines indented two more.
 */
void pb_box_note(FILE *f, size_t width, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
