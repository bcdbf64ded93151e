// SPDX-License-Identifier: MIT
/*
 * The one printer's escaping (harness/log.c): what a message quotes from a file, a flag or
 * the network reaches the terminal as text, never as a control sequence. Known answers,
 * written by hand.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "log.h"

/* pb_log_write(text) as a string (free it). */
static char *written(const char *text)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	pb_log_write(f, text);
	fclose(f);
	return buf;
}

static void expect(const char *text, const char *want)
{
	char *got = written(text);

	CHECK(got && !strcmp(got, want), "'%s': got '%s', want '%s'", want, got ? got : "(null)",
	      want);
	free(got);
}

int main(void)
{
	char big[3000];

	/* plain text, line ends and tabs pass; UTF-8 letters pass */
	expect("unknown method 'x'\n", "unknown method 'x'\n");
	expect("a\tb\n", "a\tb\n");
	expect("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80",
	       "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
	/* C0 controls, DEL: escaped */
	expect("'\x1b[31mred\x01'", "'\\x1b[31mred\\x01'");
	expect("a\rb\x7f", "a\\x0db\\x7f");
	expect("\x07", "\\x07");
	/* C1 controls (CSI is U+009B) and the marks that reorder text: \uXXXX */
	expect("\xc2\x9b"
	       "2J",
	       "\\u009b2J");
	expect("\xe2\x80\xae"
	       "abc",
	       "\\u202eabc");
	expect("\xe2\x81\xa6x\xe2\x80\x8f", "\\u2066x\\u200f");
	expect("\xef\xbb\xbf", "\\ufeff");
	/* not UTF-8: each byte escaped, and what follows read afresh */
	expect("\xff\xfe", "\\xff\\xfe");
	expect("\xc3(", "\\xc3(");
	expect("\xc0\xaf", "\\xc0\\xaf");		    /* an overlong '/' */
	expect("\xed\xa0\x80", "\\xed\\xa0\\x80");	    /* a surrogate */
	expect("\xf4\x90\x80\x80", "\\xf4\\x90\\x80\\x80"); /* above U+10FFFF */
	expect("\xe2\x82", "\\xe2\\x82");		    /* cut short at the end */
	/* a message longer than the printer's buffer keeps its escapes to the end */
	memset(big, 'a', sizeof(big) - 2);
	big[sizeof(big) - 2] = '\x1b';
	big[sizeof(big) - 1] = '\0';
	{
		char *got = written(big);

		CHECK(got && strlen(got) == sizeof(big) - 2 + 4 &&
			      !strcmp(got + sizeof(big) - 2, "\\x1b"),
		      "a long message's last byte: '%s'", got ? got + sizeof(big) - 6 : "(null)");
		free(got);
	}
	return check_summary();
}
