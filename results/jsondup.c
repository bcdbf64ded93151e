// SPDX-License-Identifier: MIT
/* A key twice in one JSON object (jsondup.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "jsondup.h"

/* json-c refuses documents deeper than 32 by default; the scan stops well past that */
#define DUP_MAX_DEPTH 256

struct dup_key {
	size_t off, len; /* the decoded key in scan.buf */
	size_t at;	 /* where it begins in the text */
};

struct dup_scan {
	const char *p, *end, *text;
	char *buf; /* decoded keys of the open objects, outermost first */
	size_t nbuf, capbuf;
	struct dup_key *keys; /* likewise */
	size_t nkeys, capkeys;
	const struct dup_key *found[2];
};

static int dup_put(struct dup_scan *s, const char *b, size_t n)
{
	if (s->nbuf + n > s->capbuf) {
		size_t cap = s->capbuf ? s->capbuf * 2 : 256;
		char *nb;

		while (cap < s->nbuf + n)
			cap *= 2;
		nb = realloc(s->buf, cap);
		if (!nb)
			return -ENOMEM;
		s->buf = nb;
		s->capbuf = cap;
	}
	memcpy(s->buf + s->nbuf, b, n);
	s->nbuf += n;
	return 0;
}

/* code point cp as UTF-8 (a lone surrogate as its three bytes: still one key's own) */
static int dup_put_cp(struct dup_scan *s, uint32_t cp)
{
	char u[4];

	if (cp < 0x80) {
		u[0] = (char)cp;
		return dup_put(s, u, 1);
	}
	if (cp < 0x800) {
		u[0] = (char)(0xc0 | cp >> 6);
		u[1] = (char)(0x80 | (cp & 0x3f));
		return dup_put(s, u, 2);
	}
	if (cp < 0x10000) {
		u[0] = (char)(0xe0 | cp >> 12);
		u[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		u[2] = (char)(0x80 | (cp & 0x3f));
		return dup_put(s, u, 3);
	}
	u[0] = (char)(0xf0 | cp >> 18);
	u[1] = (char)(0x80 | (cp >> 12 & 0x3f));
	u[2] = (char)(0x80 | (cp >> 6 & 0x3f));
	u[3] = (char)(0x80 | (cp & 0x3f));
	return dup_put(s, u, 4);
}

/* four hex digits at p (json-c has checked them); -1 if not */
static int32_t dup_hex4(const char *p, const char *end)
{
	int32_t v = 0, d;
	int i;

	if (end - p < 4)
		return -1;
	for (i = 0; i < 4; i++) {
		char c = p[i], l = (char)(c | 0x20);

		d = c >= '0' && c <= '9' ? c - '0' : l >= 'a' && l <= 'f' ? l - 'a' + 10 : -1;
		if (d < 0)
			return -1;
		v = v * 16 + d;
	}
	return v;
}

/* The string at s->p ('"'), decoded onto buf when keep; s->p past its closing quote. */
static int dup_string(struct dup_scan *s, bool keep)
{
	static const char esc[] = "\"\"\\\\//b\bf\fn\nr\rt\t";
	const char *p = s->p + 1, *q;
	int32_t cp, lo;
	int ret = 0;

	while (!ret && p < s->end && *p != '"') {
		if (*p != '\\') {
			for (q = p; q < s->end && *q != '"' && *q != '\\'; q++)
				;
			ret = keep ? dup_put(s, p, (size_t)(q - p)) : 0;
			p = q;
			continue;
		}
		if (++p >= s->end)
			break;
		if (*p != 'u') {
			const char *e = *p ? strchr(esc, *p) : NULL;

			ret = keep && e && !((e - esc) & 1) ? dup_put(s, e + 1, 1) : 0;
			p++;
			continue;
		}
		cp = dup_hex4(p + 1, s->end);
		p += 5;
		if (cp >= 0xd800 && cp < 0xdc00 && s->end - p >= 6 && p[0] == '\\' && p[1] == 'u' &&
		    (lo = dup_hex4(p + 2, s->end)) >= 0xdc00 && lo < 0xe000) {
			cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
			p += 6;
		}
		ret = keep && cp >= 0 ? dup_put_cp(s, (uint32_t)cp) : 0;
	}
	s->p = p < s->end ? p + 1 : s->end;
	return ret;
}

static void dup_space(struct dup_scan *s)
{
	while (s->p < s->end && (*s->p == ' ' || *s->p == '\t' || *s->p == '\n' || *s->p == '\r'))
		s->p++;
}

static int dup_cmp(const void *a, const void *b, void *ctx)
{
	const struct dup_key *x = a, *y = b;
	const char *buf = ctx;
	size_t n = x->len < y->len ? x->len : y->len;
	int c = memcmp(buf + x->off, buf + y->off, n);

	if (c)
		return c;
	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	return x->at < y->at ? -1 : x->at > y->at; /* the first in the text first */
}

static int dup_value(struct dup_scan *s, unsigned int depth);

/* The object at s->p ('{'): its values scanned, then its keys sorted and compared. */
static int dup_object(struct dup_scan *s, unsigned int depth)
{
	size_t k0 = s->nkeys, b0 = s->nbuf, i;
	int ret = 0;

	s->p++;
	for (;;) {
		struct dup_key *k;

		dup_space(s);
		if (s->p >= s->end || *s->p != '"')
			break; /* '}' (json-c has checked the rest) */
		if (s->nkeys == s->capkeys) {
			size_t cap = s->capkeys ? s->capkeys * 2 : 64;

			k = realloc(s->keys, cap * sizeof(*k));
			if (!k)
				return -ENOMEM;
			s->keys = k;
			s->capkeys = cap;
		}
		k = &s->keys[s->nkeys++];
		k->at = (size_t)(s->p - s->text);
		k->off = s->nbuf;
		ret = dup_string(s, true);
		if (ret)
			return ret;
		k->len = s->nbuf - k->off;
		dup_space(s);
		if (s->p < s->end && *s->p == ':')
			s->p++;
		ret = dup_value(s, depth + 1);
		if (ret)
			return ret;
		dup_space(s);
		if (s->p < s->end && *s->p == ',')
			s->p++;
	}
	if (s->p < s->end)
		s->p++;
	/* an object without keys has nothing to sort, and maybe no key table yet (NULL) */
	if (s->nkeys > k0)
		qsort_r(s->keys + k0, s->nkeys - k0, sizeof(*s->keys), dup_cmp, s->buf);
	for (i = k0; i + 1 < s->nkeys; i++) {
		if (s->keys[i].len == s->keys[i + 1].len &&
		    !memcmp(s->buf + s->keys[i].off, s->buf + s->keys[i + 1].off, s->keys[i].len)) {
			s->found[0] = &s->keys[i];
			s->found[1] = &s->keys[i + 1];
			return 1;
		}
	}
	/* this object's keys are done with: its parent's go on after them */
	s->nkeys = k0;
	s->nbuf = b0;
	return 0;
}

static int dup_value(struct dup_scan *s, unsigned int depth)
{
	int ret;

	dup_space(s);
	if (s->p >= s->end || depth > DUP_MAX_DEPTH)
		return 0;
	if (*s->p == '{')
		return dup_object(s, depth);
	if (*s->p == '"')
		return dup_string(s, false);
	if (*s->p != '[') {
		/* a number, true, false or null */
		while (s->p < s->end && !strchr(",]} \t\r\n", *s->p))
			s->p++;
		return 0;
	}
	s->p++;
	for (;;) {
		dup_space(s);
		if (s->p >= s->end || *s->p == ']')
			break;
		ret = dup_value(s, depth + 1);
		if (ret)
			return ret;
		dup_space(s);
		if (s->p < s->end && *s->p == ',')
			s->p++;
		else
			break;
	}
	if (s->p < s->end)
		s->p++;
	return 0;
}

int pb_json_dup_key(const char *text, size_t len, char *key, size_t keylen, size_t *at)
{
	struct dup_scan s = { .p = text, .end = text + len, .text = text };
	size_t i, n;
	int ret;

	ret = dup_value(&s, 0);
	if (ret == 1) {
		const struct dup_key *k = s.found[1];

		/* printable in a one-line message: anything else as '?' */
		n = k->len < keylen - 1 ? k->len : keylen - 1;
		for (i = 0; i < n; i++) {
			unsigned char c = (unsigned char)s.buf[k->off + i];

			key[i] = c >= 0x20 && c < 0x7f ? (char)c : '?';
		}
		key[n] = '\0';
		*at = k->at;
	}
	free(s.buf);
	free(s.keys);
	return ret;
}
