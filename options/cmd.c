// SPDX-License-Identifier: MIT
/*
 * The option-table machinery every command shares: values from strings (command line and
 * scenario files alike), getopt_long built from the rows, and --help printed from them.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <arpa/inet.h>

#include "method.h"
#include "options.h"
#include "scenario.h"

const struct pb_opt *pb_cmd_opt(const struct pb_cmd *cmd, const char *name)
{
	unsigned int i;

	for (i = 0; i < cmd->nopts; i++)
		if (!strcmp(cmd->opts[i].name, name) ||
		    (cmd->opts[i].list_key && !strcmp(cmd->opts[i].list_key, name)))
			return &cmd->opts[i];
	return NULL;
}

bool pb_opt_in_file(const struct pb_opt *o)
{
	return !(o->flags & PB_OPTF_NO_YAML) && o->type != OPT_CONFIG && o->type != OPT_HELP &&
	       o->type != OPT_VERSION;
}

bool pb_opt_takes_value(const struct pb_opt *o)
{
	return o->type != OPT_FLAG && o->type != OPT_COUNT && o->type != OPT_HELP &&
	       o->type != OPT_VERSION;
}

void pb_opt_label(const struct pb_opt *o, char *buf, size_t len)
{
	snprintf(buf, len, "%s%c%s--%s%s%s", o->short_name ? "-" : " ",
		 o->short_name ? o->short_name : ' ', o->short_name ? ", " : "  ", o->name,
		 o->metavar ? " " : "", o->metavar ? o->metavar : "");
}

int pb_parse_addr(const char *s, struct pb_addr *out)
{
	memset(out, 0, sizeof(*out));
	if (inet_pton(AF_INET, s, &out->v4) == 1) {
		out->family = AF_INET;
		return 0;
	}
	if (inet_pton(AF_INET6, s, &out->v6) == 1) {
		out->family = AF_INET6;
		return 0;
	}
	return -EINVAL;
}

int pb_parse_mac(const char *s, uint8_t mac[6])
{
	unsigned int b[6];
	char tail;
	int i;

	if (sscanf(s, "%2x:%2x:%2x:%2x:%2x:%2x%c", &b[0], &b[1], &b[2], &b[3], &b[4], &b[5],
		   &tail) != 6 ||
	    strlen(s) != 17)
		return -EINVAL;
	for (i = 0; i < 6; i++)
		mac[i] = (uint8_t)b[i];
	return 0;
}

static int opt_parse_u64(const char *s, uint64_t *out)
{
	unsigned long long v;
	char *end;

	/* decimal digits only: strtoull also takes blanks and a sign before them */
	if (!*s || s[strspn(s, "0123456789")])
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end)
		return -EINVAL;
	*out = v;
	return 0;
}

int pb_parse_u32_list(const char *s, uint64_t min, uint64_t max, uint32_t *out, unsigned int cap,
		      uint32_t *n)
{
	const char *p = s;

	*n = 0;
	while (*p) {
		unsigned long v;
		char *end;

		errno = 0;
		v = (*p >= '0' && *p <= '9') ? strtoul(p, &end, 10) : 0;
		if (errno || !v || (*end && *end != ',') || v < min || v > max || *n == cap)
			return -EINVAL;
		out[(*n)++] = (uint32_t)v;
		p = *end ? end + 1 : end;
	}
	return 0;
}

static int opt_parse_rate_list(const struct pb_cmd *cmd, const struct pb_opt *row, const char *list,
			       uint32_t *out, uint32_t *n, char *err, size_t errlen);

/*
 * NAME=64,128,256: NAME is one of the rows o->names lists, and each value must be one that
 * row takes, within its range.
 */
static int opt_parse_sweep(const struct pb_cmd *cmd, const struct pb_opt *o, struct pb_sweep *sw,
			   const char *arg, char *err, size_t errlen)
{
	const char *eq = strchr(arg, '=');
	const struct pb_opt *row = NULL;
	unsigned int k;
	int off;

	if (sw->profile) {
		snprintf(err, errlen, "--%s: a --pps profile is a sweep of its own: give one",
			 o->name);
		return -EINVAL;
	}
	memset(sw, 0, sizeof(*sw));
	for (k = 0; eq && o->names[k]; k++) {
		if (strlen(o->names[k]) == (size_t)(eq - arg) &&
		    !strncmp(arg, o->names[k], eq - arg)) {
			row = pb_cmd_opt(cmd, o->names[k]);
			break;
		}
	}
	if (!row) {
		off = snprintf(err, errlen, "--%s: '%s' is not", o->name, arg);
		for (k = 0; o->names[k] && off > 0 && (size_t)off < errlen; k++)
			off += snprintf(err + off, errlen - off, "%s %s=V1,V2,..", k ? " or" : "",
					o->names[k]);
		return -EINVAL;
	}
	if (row->type == OPT_RATE) {
		if (opt_parse_rate_list(cmd, row, eq + 1, sw->values, &sw->n, err, errlen))
			return -EINVAL;
	} else if (pb_parse_u32_list(eq + 1, row->min, row->max, sw->values, PB_MAX_SWEEP,
				     &sw->n)) {
		snprintf(err, errlen, "--%s: %s takes up to %d values from %llu to %llu: '%s'",
			 o->name, row->name, PB_MAX_SWEEP, (unsigned long long)row->min,
			 (unsigned long long)row->max, arg);
		return -EINVAL;
	}
	if (!sw->n) {
		snprintf(err, errlen, "--%s: no values in '%s'", o->name, arg);
		return -EINVAL;
	}
	sw->kind = (enum pb_sweep_kind)(k + 1);
	return 0;
}

/* 0,2-3: every CPU must be one this process may run on (online and allowed). */
static int opt_parse_cpus(const struct pb_opt *o, uint32_t *cpus, uint32_t *n, const char *arg,
			  char *err, size_t errlen)
{
	cpu_set_t allowed;
	const char *p = arg;

	CPU_ZERO(&allowed);
	sched_getaffinity(0, sizeof(allowed), &allowed);
	*n = 0;
	while (*p) {
		unsigned long lo, hi, c;
		char *end;

		if (*p < '0' || *p > '9')
			goto bad;
		lo = hi = strtoul(p, &end, 10);
		if (*end == '-') {
			if (end[1] < '0' || end[1] > '9')
				goto bad;
			hi = strtoul(end + 1, &end, 10);
		}
		if (hi < lo || (*end && *end != ','))
			goto bad;
		for (c = lo; c <= hi; c++) {
			if (c >= CPU_SETSIZE || !CPU_ISSET(c, &allowed)) {
				snprintf(err, errlen,
					 "--%s: CPU %lu is not online (or not allowed)", o->name,
					 c);
				return -EINVAL;
			}
			if (*n == o->max) {
				snprintf(err, errlen, "--%s: more than %llu CPUs", o->name,
					 (unsigned long long)o->max);
				return -EINVAL;
			}
			cpus[(*n)++] = (uint32_t)c;
		}
		p = *end ? end + 1 : end;
	}
	if (*n)
		return 0;
bad:
	snprintf(err, errlen, "--%s: '%s' is not a CPU list (e.g. 0,1 or 0-3)", o->name, arg);
	return -EINVAL;
}

/* Edits (insert, delete, change a character) from a to b, ignoring case; 99 past 32. */
static unsigned int opt_distance(const char *a, const char *b)
{
	unsigned int row[33], i, j, prev, cur;
	size_t la = strlen(a), lb = strlen(b);

	if (la > 32 || lb > 32)
		return 99;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = i;
		for (j = 1; j <= lb; j++) {
			cur = row[j];
			row[j] =
				tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 1])
					? prev
					: 1 + (prev < row[j]
						       ? (prev < row[j - 1] ? prev : row[j - 1])
						       : (row[j] < row[j - 1] ? row[j]
									      : row[j - 1]));
			prev = cur;
		}
	}
	return row[lb];
}

/*
 * name when it is closer to what than best (*bestd): within a third of what's length (at least
 * 2 edits), or holding what whole, 3 letters or more ("sendto" of udp_sendto), which beats any
 * edit. Distances are doubled so that a part found ranks between 0 and 1 edit.
 */
static const char *opt_closest(const char *what, const char *name, const char *best,
			       unsigned int *bestd)
{
	unsigned int d = 2 * opt_distance(what, name), most = (unsigned int)strlen(what) / 3;

	if (strlen(what) >= 3 && strcasestr(name, what))
		d = d < 1 ? d : 1;
	most = 2 * (most < 2 ? 2 : most);
	if (d <= most && d < *bestd) {
		*bestd = d;
		return name;
	}
	return best;
}

/*
 * benchmark, a method, or a comma list of them: each must be one this binary has (names and
 * aliases in any case). A name it lacks is answered with the closest it has.
 */
static int opt_check_methods(const char *arg, char *err, size_t errlen)
{
	const char *best = NULL;
	unsigned int i, j, d = 99;
	char bad[64];

	if (pb_methods_select(arg, NULL, 0, bad, sizeof(bad)) >= 0)
		return 0;
	if (!strcasecmp(bad, "benchmark")) {
		snprintf(err, errlen,
			 "--method benchmark runs every method: it cannot be combined with others "
			 "(give benchmark alone, or a list of methods)");
		return -EINVAL;
	}
	/* benchmark goes alone: in a list, a name near it is meant as a method */
	if (!strchr(arg, ','))
		best = opt_closest(bad, "benchmark", best, &d);
	for (i = 0; i < pb_methods_count; i++) {
		best = opt_closest(bad, pb_methods[i]->name, best, &d);
		for (j = 0; j < 3 && pb_methods[i]->aliases[j].name; j++)
			best = opt_closest(bad, pb_methods[i]->aliases[j].name, best, &d);
	}
	if (best)
		snprintf(
			err, errlen,
			"unknown method '%s': did you mean %s? (pktbench --help lists every method "
			"and alias)",
			bad, best);
	else
		snprintf(err, errlen,
			 "unknown method '%s': pktbench --help lists every method and alias; "
			 "benchmark runs them all",
			 bad);
	return -EINVAL;
}

/*
 * Whether s is a decimal number, [+-]digits[.digits][e[+-]digits] with a digit before the
 * exponent: strtod also takes hex ("0x10" is 16, "0x1p4"), blanks, inf and nan.
 */
static bool opt_decimal(const char *s)
{
	size_t n;

	s += *s == '+' || *s == '-';
	n = strspn(s, "0123456789");
	s += n;
	if (*s == '.') {
		s++;
		n += strspn(s, "0123456789");
		s += strspn(s, "0123456789");
	}
	if (!n)
		return false;
	if (*s == 'e' || *s == 'E') {
		s++;
		s += *s == '+' || *s == '-';
		if (!strspn(s, "0123456789"))
			return false;
		s += strspn(s, "0123456789");
	}
	return !*s;
}

/* The one reader of every fractional number an option takes: decimal, finite, whole text. */
static bool opt_parse_double(const char *arg, double *d)
{
	char *end;

	if (!opt_decimal(arg))
		return false;
	errno = 0;
	*d = strtod(arg, &end);
	return !errno && !*end && isfinite(*d);
}

int pb_parse_decimal(const char *s, double *d)
{
	return opt_parse_double(s, d) ? 0 : -EINVAL;
}

/* The length of the decimal number s starts with (opt_decimal's grammar), 0 if none. */
static size_t opt_number_len(const char *s)
{
	const char *p = s + (*s == '+' || *s == '-');
	size_t n = strspn(p, "0123456789"), e;

	p += n;
	if (*p == '.') {
		n += strspn(p + 1, "0123456789");
		p += 1 + strspn(p + 1, "0123456789");
	}
	if (!n)
		return 0;
	/* an exponent only when digits follow: no unit starts with e */
	if (*p == 'e' || *p == 'E') {
		e = 1 + (p[1] == '+' || p[1] == '-');
		if (strspn(p + e, "0123456789"))
			p += e + strspn(p + e, "0123456789");
	}
	return (size_t)(p - s);
}

/* The unit words that are one word each; bits and bytes are a prefix and a word. */
static const struct {
	const char *word;
	enum pb_unit unit;
	double mult;
} opt_units[] = {
	{ "ms", PB_UNIT_TIME, 1e-3 }, { "s", PB_UNIT_TIME, 1 },	   { "m", PB_UNIT_TIME, 60 },
	{ "min", PB_UNIT_TIME, 60 },  { "h", PB_UNIT_TIME, 3600 }, { "d", PB_UNIT_TIME, 86400 },
	{ "k", PB_UNIT_COUNT, 1e3 },  { "K", PB_UNIT_COUNT, 1e3 }, { "M", PB_UNIT_COUNT, 1e6 },
	{ "G", PB_UNIT_COUNT, 1e9 },
};

/* "Gbit", "Mb/s", "kbps", "MB/s": bits or bytes a second with an SI prefix (any case). */
static enum pb_unit opt_rate_unit(const char *u, double *mult)
{
	static const char *const bits[] = { "bit", "bits", "bit/s", "bits/s", NULL };
	static const char *const bytes[] = { "byte", "bytes", "byte/s", "bytes/s", NULL };
	const char *p = strchr("kKmMgGtT", *u) && *u ? u + 1 : u;
	unsigned int i;

	*mult = p == u ? 1 : pow(1e3, 1 + (int)(strchr("kKmMgGtT", *u) - "kKmMgGtT") / 2);
	/* b is bits and B bytes, as in Mb/s and MB/s; the words in any case */
	if (!strcmp(p, "b") || !strcmp(p, "b/s") || !strcmp(p, "bps"))
		return PB_UNIT_BITS;
	if (!strcmp(p, "B") || !strcmp(p, "B/s") || !strcmp(p, "Bps"))
		return PB_UNIT_BYTES;
	for (i = 0; bits[i]; i++)
		if (!strcasecmp(p, bits[i]))
			return PB_UNIT_BITS;
	for (i = 0; bytes[i]; i++)
		if (!strcasecmp(p, bytes[i]))
			return PB_UNIT_BYTES;
	return PB_UNIT_NONE;
}

int pb_parse_unit(const char *s, double *v, enum pb_unit *unit, char *word, size_t wordlen)
{
	size_t n = opt_number_len(s);
	const char *u = s + n;
	char num[64];
	double mult = 1;
	unsigned int i;

	*unit = PB_UNIT_NONE;
	if (word && wordlen)
		snprintf(word, wordlen, "%s", u);
	if (!n || n >= sizeof(num))
		return -EINVAL;
	snprintf(num, sizeof(num), "%.*s", (int)n, s);
	if (!opt_parse_double(num, v))
		return -EINVAL;
	if (!*u)
		return 0;
	for (i = 0; i < sizeof(opt_units) / sizeof(opt_units[0]); i++) {
		if (!strcmp(u, opt_units[i].word)) {
			*unit = opt_units[i].unit;
			mult = opt_units[i].mult;
			break;
		}
	}
	if (*unit == PB_UNIT_NONE)
		*unit = opt_rate_unit(u, &mult);
	if (*unit == PB_UNIT_NONE)
		return -EDOM;
	*v *= mult;
	return isfinite(*v) ? 0 : -EINVAL;
}

int pb_parse_secs(const char *s, double *secs)
{
	enum pb_unit unit;

	if (pb_parse_unit(s, secs, &unit, NULL, 0) ||
	    (unit != PB_UNIT_NONE && unit != PB_UNIT_TIME))
		return -EINVAL;
	return *secs > 0 ? 0 : -EINVAL;
}

/*
 * The kind of unit row o takes: a time, a bit rate, a count (packet rates are counts), or
 * none (a factor).
 */
static enum pb_unit opt_kind(const struct pb_opt *o)
{
	if (o->type == OPT_SECS)
		return PB_UNIT_TIME;
	if (o->type == OPT_RATE && (o->flags & PB_OPTF_BITS))
		return PB_UNIT_BITS;
	if (o->flags & PB_OPTF_FACTOR)
		return PB_UNIT_NONE;
	return PB_UNIT_COUNT;
}

/* What row o takes, in words, for its refusals: no example a user could take for another. */
static const char *opt_takes(const struct pb_opt *o)
{
	switch (opt_kind(o)) {
	case PB_UNIT_NONE:
		return "a decimal number, no unit";
	case PB_UNIT_TIME:
		return "a decimal number of seconds, or one with ms, s, m, h or d after it";
	case PB_UNIT_BITS:
		return "a decimal number of Gb/s on the wire, or one with kbit, Mbit, Gbit, Tbit, "
		       "Mb/s or Gb/s after it";
	default:
		return o->type == OPT_RATE
			       ? "a decimal number of packets a second, or one with k, M or G "
				 "after it"
			       : "a whole number, or a decimal one with k, M or G after it";
	}
}

/* bits a second as the shortest unit that keeps it whole-ish: 8e6 is "8Mbit" */
static void opt_bits_word(double bits, char *buf, size_t len)
{
	static const char *const pre[] = { "", "k", "M", "G", "T" };
	unsigned int i = 0;

	while (i < 4 && bits >= 1e3) {
		bits /= 1e3;
		i++;
	}
	snprintf(buf, len, "%g%sbit", bits, pre[i]);
}

/*
 * arg's number in row o's unit (seconds; things; Gb/s for a bit rate) into *d; a value in
 * another kind of unit is refused naming what it is and, where this command has one, the
 * option that takes it (o->other), with what it means there: never a value of another kind.
 * 0; -EINVAL; -EDOM for a unit of another kind (a message in err either way).
 */
static int opt_parse_value(const struct pb_cmd *cmd, const struct pb_opt *o, const char *arg,
			   double *d, char *err, size_t errlen)
{
	static const char *const kinds[] = { "a number", "a time", "a count", "a bit rate",
					     "bytes a second" };
	const struct pb_opt *other = o->other && cmd ? pb_cmd_opt(cmd, o->other) : NULL;
	enum pb_unit want = opt_kind(o), unit;
	char word[32], alt[320] = "", num[64], bits[32];
	int ret, off;

	ret = pb_parse_unit(arg, d, &unit, word, sizeof(word));
	if (ret == -EINVAL) {
		snprintf(err, errlen, "--%s: '%s' is not a positive %s (%s)", o->name, arg,
			 want == PB_UNIT_TIME  ? "number of seconds"
			 : o->type == OPT_RATE ? "rate"
					       : "count",
			 opt_takes(o));
		return -EINVAL;
	}
	if (ret == -EDOM) {
		snprintf(err, errlen, "--%s: '%s' is not %s", o->name, arg, opt_takes(o));
		return -EINVAL;
	}
	if (unit == PB_UNIT_NONE || unit == want) {
		/* a bit rate's unit is bits a second, its field Gb/s */
		if (want == PB_UNIT_BITS && unit == PB_UNIT_BITS)
			*d /= 1e9;
		return 0;
	}
	snprintf(num, sizeof(num), "%.*s", (int)(strlen(arg) - strlen(word)), arg);
	/* what the value is in this row's kind, where it has a reading that means the same */
	if (want == PB_UNIT_BITS && unit == PB_UNIT_COUNT)
		snprintf(alt, sizeof(alt), "; %s %sb/s is --%s %s%sbit", num, word, o->name, num,
			 word);
	if (unit == PB_UNIT_BYTES &&
	    (want == PB_UNIT_BITS || (other && opt_kind(other) == PB_UNIT_BITS))) {
		opt_bits_word(*d * 8, bits, sizeof(bits));
		snprintf(alt, sizeof(alt), "; %s is --%s %s", arg,
			 want == PB_UNIT_BITS ? o->name : other->name, bits);
	}
	/* m is minutes, never millions: the one spelling a packet rate's user may have meant */
	if (want == PB_UNIT_COUNT && !strcmp(word, "m"))
		snprintf(alt, sizeof(alt), "; millions are M");
	off = snprintf(err, errlen, "--%s: '%s' is %s (%s); --%s takes %s%s", o->name, arg,
		       kinds[unit], word, o->name, opt_takes(o), alt);
	if (other && opt_kind(other) == unit && off > 0 && (size_t)off < errlen)
		snprintf(err + off, errlen - (size_t)off, "; for %s, --%s %s",
			 unit == PB_UNIT_TIME	   ? "a duration"
			 : unit == PB_UNIT_BITS	   ? "a bit rate"
			 : other->type == OPT_RATE ? "packets a second"
						   : "a count",
			 other->name, arg);
	return -EDOM;
}

/*
 * A packet rate (k, M, G) or, for a PB_OPTF_BITS row, a bit rate into Gb/s: above 0. 0,
 * -EINVAL, or -EDOM (a unit of another kind).
 */
static int opt_parse_rate(const struct pb_cmd *cmd, const struct pb_opt *o, double *field,
			  const char *arg, char *err, size_t errlen)
{
	double d;
	int ret;

	ret = opt_parse_value(cmd, o, arg, &d, err, errlen);
	if (ret)
		return ret;
	if (!(d > 0)) {
		snprintf(err, errlen, "--%s: '%s' is not a positive rate (%s)", o->name, arg,
			 opt_takes(o));
		return -EINVAL;
	}
	*field = d;
	return 0;
}

/* A rate as --pps takes it, and a whole number of packets a second a sweep can hold. */
static int opt_parse_rate_u32(const struct pb_cmd *cmd, const struct pb_opt *o, double *d,
			      const char *arg, char *err, size_t errlen)
{
	int ret = opt_parse_rate(cmd, o, d, arg, err, errlen);

	return ret ?: *d < 1 || *d > UINT32_MAX ? -EINVAL : 0;
}

/*
 * --sweep pps=10k,20k,1.5M: each a rate as --pps takes it (suffixes k, M, G), whole packets a
 * second from 1 to 2^32 - 1 (a sweep's values are whole numbers).
 */
static int opt_parse_rate_list(const struct pb_cmd *cmd, const struct pb_opt *row, const char *list,
			       uint32_t *out, uint32_t *n, char *err, size_t errlen)
{
	const char *p = list;
	char one[64];
	double d;
	int ret;

	*n = 0;
	while (*p) {
		size_t len = strcspn(p, ",");

		if (len >= sizeof(one) || *n == PB_MAX_SWEEP)
			goto bad;
		snprintf(one, sizeof(one), "%.*s", (int)len, p);
		ret = opt_parse_rate_u32(cmd, row, &d, one, err, errlen);
		if (ret == -EDOM)
			return -EINVAL; /* a unit of another kind: said as for --pps */
		if (ret)
			goto bad;
		out[(*n)++] = (uint32_t)(d + 0.5);
		p += len;
		if (*p == ',' && *++p == '\0')
			goto bad;
	}
	return 0;
bad:
	snprintf(
		err, errlen,
		"--sweep: %s takes up to %d rates from 1 to %u packets/s (e.g. 10k,20k,1.5M): '%s'",
		row->name, PB_MAX_SWEEP, UINT32_MAX, list);
	return -EINVAL;
}

/*
 * --pps RATE:SECS[,RATE:SECS...], a step each, and FROM-TO:SECS, a linear ramp of a step a
 * second (at least 2): the rates into sw as a pps sweep whose points last their own seconds.
 */
static int opt_parse_profile(const struct pb_cmd *cmd, const struct pb_opt *o, double *pps,
			     struct pb_sweep *sw, const char *arg, char *err, size_t errlen)
{
	const char *p = arg;
	char one[96], *colon, *dash;
	int ret;

	if (sw->kind && !sw->profile) {
		snprintf(err, errlen, "--%s: a profile is a sweep of its own: not with --sweep",
			 o->name);
		return -EINVAL;
	}
	memset(sw, 0, sizeof(*sw));
	while (*p) {
		size_t len = strcspn(p, ",");
		double a, b, secs;
		uint32_t steps, i;

		if (len >= sizeof(one))
			goto bad;
		snprintf(one, sizeof(one), "%.*s", (int)len, p);
		colon = strchr(one, ':');
		if (!colon)
			goto bad;
		*colon = '\0';
		/* a duration as --duration takes it: 10, 10s, 500ms, 1m */
		if (pb_parse_secs(colon + 1, &secs) || !(secs >= 0.001) || secs > 86400)
			goto bad;
		dash = strchr(one, '-');
		if (dash)
			*dash = '\0';
		ret = opt_parse_rate_u32(cmd, o, &a, one, err, errlen);
		b = a;
		if (!ret && dash)
			ret = opt_parse_rate_u32(cmd, o, &b, dash + 1, err, errlen);
		if (ret == -EDOM) {
			memset(sw, 0, sizeof(*sw));
			return -EINVAL; /* a unit of another kind: said as for a rate */
		}
		if (ret)
			goto bad;
		/* a ramp: a step a second, its ends included */
		steps = dash ? (uint32_t)fmax(2, round(secs)) : 1;
		if (sw->n + steps > PB_MAX_SWEEP)
			goto bad;
		for (i = 0; i < steps; i++) {
			double r = steps > 1 ? a + (b - a) * i / (steps - 1) : a;

			sw->values[sw->n] = (uint32_t)(r + 0.5);
			sw->secs[sw->n++] = secs / steps;
		}
		p += len;
		if (*p == ',' && *++p == '\0')
			goto bad;
	}
	if (!sw->n)
		goto bad;
	sw->kind = PB_SWEEP_PPS;
	sw->profile = true;
	*pps = 0; /* each step's rate is its point's */
	return 0;
bad:
	memset(sw, 0, sizeof(*sw));
	snprintf(err, errlen,
		 "--%s: '%s' is not a rate or a profile: RATE:SECS[,RATE:SECS...] steps (100k:10s,"
		 "200k:10s) or FROM-TO:SECS, a linear ramp of a step a second; %d steps at most, "
		 "rates 1 to %u",
		 o->name, arg, PB_MAX_SWEEP, UINT32_MAX);
	return -EINVAL;
}

static int opt_parse_pct(const struct pb_opt *o, double *field, const char *arg, char *err,
			 size_t errlen)
{
	char num[64];
	size_t len = strlen(arg);
	double d;

	snprintf(num, sizeof(num), "%.*s", (int)(len - (len > 1 && arg[len - 1] == '%')), arg);
	if (len >= sizeof(num) || !opt_parse_double(num, &d) || !(d >= (double)o->min) ||
	    !(d <= (double)o->max)) {
		snprintf(err, errlen, "--%s: '%s' is not a percentage from %llu to %llu", o->name,
			 arg, (unsigned long long)o->min, (unsigned long long)o->max);
		return -EINVAL;
	}
	*field = d;
	return 0;
}

/*
 * A count with k, M or G after it, exactly: 1.5M is 1500000, 1.0005k no whole number. The
 * number is digits with at most a fraction (no sign, no exponent). 0; -EDOM with a message
 * in err when the unit is of another kind; -EINVAL (no message) for anything else.
 */
static int opt_parse_count(const struct pb_cmd *cmd, const struct pb_opt *o, const char *arg,
			   uint64_t *v, char *err, size_t errlen)
{
	size_t whole = strspn(arg, "0123456789"), frac = 0, k, digits;
	enum pb_unit unit;
	double d;
	int pow10;

	if (opt_parse_value(cmd, o, arg, &d, err, errlen) == -EDOM)
		return -EDOM;
	if (pb_parse_unit(arg, &d, &unit, NULL, 0) || unit != PB_UNIT_COUNT || !whole)
		return -EINVAL;
	if (arg[whole] == '.')
		frac = strspn(arg + whole + 1, "0123456789");
	digits = whole + (frac ? frac + 1 : arg[whole] == '.');
	if (!arg[digits] || !strchr("kKMG", arg[digits]))
		return -EINVAL;
	/* the unit's power of ten: k 3, M 6, G 9 */
	pow10 = strchr("kK", arg[digits]) ? 3 : arg[digits] == 'M' ? 6 : 9;
	if (arg[digits + 1])
		return -EINVAL; /* one letter, nothing after it */
	/* trailing zeros of the fraction say nothing */
	while (frac && arg[whole + frac] == '0')
		frac--;
	if ((int)frac > pow10)
		return -EINVAL;
	*v = 0;
	for (k = 0; k < whole + frac + (size_t)(pow10 - (int)frac); k++) {
		unsigned int c = k < whole	    ? (unsigned int)(arg[k] - '0')
				 : k < whole + frac ? (unsigned int)(arg[k + 1] - '0')
						    : 0;

		if (*v > (UINT64_MAX - c) / 10)
			return -EINVAL;
		*v = *v * 10 + c;
	}
	return 0;
}

/* The command line's meaning of arg for row o. */
static int opt_apply(const struct pb_cmd *cmd, const struct pb_opt *o, void *dst, const char *arg,
		     char *err, size_t errlen)
{
	char *field = (char *)dst + o->off;
	uint64_t v;
	double d, max_s;
	int i, ret;

	switch (o->type) {
	case OPT_STR:
	case OPT_METHODS:
		/* a repeatable row keeps what it had: one value after another, ';' apart */
		i = (o->flags & PB_OPTF_REPEAT) && *field ? (int)strlen(field) + 1 : 0;
		if (strlen(arg) + (size_t)i >= o->max || !*arg) {
			snprintf(err, errlen,
				 "--%s: '%s' is empty or longer than %llu characters%s", o->name,
				 arg, (unsigned long long)o->max - 1 - (unsigned long long)i,
				 i ? " with the ones before" : "");
			return -EINVAL;
		}
		if (o->type == OPT_METHODS && opt_check_methods(arg, err, errlen))
			return -EINVAL;
		if (i)
			field[i - 1] = ';';
		strcpy(field + i, arg);
		return 0;
	case OPT_SECS:
		if (opt_parse_value(cmd, o, arg, &d, err, errlen))
			return -EINVAL;
		if (!(d > 0)) {
			snprintf(err, errlen, "--%s: '%s' is not a positive number of seconds (%s)",
				 o->name, arg, opt_takes(o));
			return -EINVAL;
		}
		/* a table's max (whole seconds) or a year: past it, ns no longer fit 64 bits */
		max_s = o->max ? (double)o->max : 86400.0 * 365;
		if (d > max_s) {
			snprintf(err, errlen,
				 "--%s: '%s' (%.15g s) is more than any run lasts: at most %.0f s "
				 "(%.0f days)",
				 o->name, arg, d, max_s, max_s / 86400);
			return -EINVAL;
		}
		*(double *)field = d;
		return 0;
	case OPT_U64:
	case OPT_U32:
	case OPT_PORT:
		ret = opt_parse_u64(arg, &v);
		if (ret && (o->flags & PB_OPTF_SI))
			ret = opt_parse_count(cmd, o, arg, &v, err, errlen);
		/* a unit of another kind has said so; anything else is out of the row's range */
		if (ret == -EDOM)
			return -EINVAL;
		if (ret || v < o->min || v > o->max) {
			snprintf(err, errlen,
				 "--%s: '%s' is not a whole number from %llu to %llu%s", o->name,
				 arg, (unsigned long long)o->min, (unsigned long long)o->max,
				 o->flags & PB_OPTF_SI ? " (k, M or G may follow)" : "");
			return -EINVAL;
		}
		if (o->type == OPT_U64)
			*(uint64_t *)field = v;
		else if (o->type == OPT_U32)
			*(uint32_t *)field = (uint32_t)v;
		else
			*(uint16_t *)field = (uint16_t)v;
		if (o->flag_off)
			*(bool *)((char *)dst + o->flag_off) = true;
		return 0;
	case OPT_ADDR:
		if (pb_parse_addr(arg, (struct pb_addr *)field)) {
			snprintf(err, errlen, "--%s: '%s' is not an IPv4 or IPv6 address", o->name,
				 arg);
			return -EINVAL;
		}
		if (o->flag_off)
			*(bool *)((char *)dst + o->flag_off) = true;
		return 0;
	case OPT_MAC:
		if (pb_parse_mac(arg, (uint8_t *)field)) {
			snprintf(err, errlen, "--%s: '%s' is not a MAC address (aa:bb:cc:dd:ee:ff)",
				 o->name, arg);
			return -EINVAL;
		}
		*(bool *)((char *)dst + o->flag_off) = true;
		return 0;
	case OPT_FLAG:
		*(bool *)field = true;
		return 0;
	case OPT_ENUM:
		for (i = 0; o->names[i]; i++) {
			if (!strcmp(arg, o->names[i])) {
				*(int *)field = i;
				if (o->flag_off) /* the user's choice, not the default */
					*(bool *)((char *)dst + o->flag_off) = true;
				return 0;
			}
		}
		snprintf(err, errlen, "--%s: '%s' is not one of %s", o->name, arg, o->metavar);
		return -EINVAL;
	case OPT_RATE:
		if ((o->flags & PB_OPTF_PROFILE) && strchr(arg, ':'))
			return opt_parse_profile(cmd, o, (double *)field,
						 (struct pb_sweep *)((char *)dst + o->flag_off),
						 arg, err, errlen);
		/* -EDOM, a unit of another kind: the caller may add what it means in this run */
		return opt_parse_rate(cmd, o, (double *)field, arg, err, errlen);
	case OPT_PCT:
		return opt_parse_pct(o, (double *)field, arg, err, errlen);
	case OPT_CPUS:
		return opt_parse_cpus(o, (uint32_t *)field, (uint32_t *)((char *)dst + o->flag_off),
				      arg, err, errlen);
	case OPT_SWEEP:
		return opt_parse_sweep(cmd, o, (struct pb_sweep *)field, arg, err, errlen);
	case OPT_CONFIG:
		/* loaded by pb_cmd_parse before everything else; keep the name */
		snprintf(field, o->max, "%s", arg);
		return 0;
	case OPT_COUNT:
		(*(int *)field)++;
		return 0;
	case OPT_HELP:
	case OPT_VERSION:
		return 0;
	}
	return -EINVAL;
}

int pb_cmd_set(const struct pb_cmd *cmd, void *dst, const struct pb_opt *o, const char *value,
	       char *err, size_t errlen)
{
	uint64_t v;

	switch (o->type) {
	case OPT_FLAG:
		if (!strcmp(value, "true") || !strcmp(value, "false")) {
			*(bool *)((char *)dst + o->off) = !strcmp(value, "true");
			return 0;
		}
		snprintf(err, errlen, "--%s: '%s' is not true or false", o->name, value);
		return -EINVAL;
	case OPT_COUNT:
		if (opt_parse_u64(value, &v) || v > 3) {
			snprintf(err, errlen, "--%s: '%s' is not 0 to 3", o->name, value);
			return -EINVAL;
		}
		*(int *)((char *)dst + o->off) = (int)v;
		return 0;
	default:
		return opt_apply(cmd, o, dst, value, err, errlen) ? -EINVAL : 0;
	}
}

int pb_cmd_defaults(const struct pb_cmd *cmd, void *dst, char *err, size_t errlen)
{
	unsigned int i;

	memset(dst, 0, cmd->size);
	for (i = 0; i < cmd->nopts; i++) {
		const struct pb_opt *o = &cmd->opts[i];

		if (o->def && opt_apply(cmd, o, dst, o->def, err, errlen))
			return -EINVAL; /* a bad default is a bug; say so rather than run */
		/* a default is not the user's */
		if (o->def && o->flag_off &&
		    (o->type == OPT_ADDR || o->type == OPT_U64 || o->type == OPT_U32 ||
		     o->type == OPT_PORT || o->type == OPT_ENUM))
			*(bool *)((char *)dst + o->flag_off) = false;
	}
	return 0;
}

/* getopt_long's tables for cmd; free *lopts. */
static int opt_getopt_tables(const struct pb_cmd *cmd, struct option **lopts, char **sopts)
{
	unsigned int i, n = 0;

	*lopts = calloc(cmd->nopts + 1, sizeof(**lopts));
	*sopts = calloc(cmd->nopts * 2 + 2, 1);
	if (!*lopts || !*sopts) {
		free(*lopts);
		free(*sopts);
		return -ENOMEM;
	}
	/* ':' first: a missing value is told apart from an unknown option */
	(*sopts)[n++] = ':';
	for (i = 0; i < cmd->nopts; i++) {
		const struct pb_opt *o = &cmd->opts[i];

		(*lopts)[i] = (struct option){
			o->name, pb_opt_takes_value(o) ? required_argument : no_argument, NULL, 0
		};
		if (o->short_name) {
			(*sopts)[n++] = o->short_name;
			if (pb_opt_takes_value(o))
				(*sopts)[n++] = ':';
		}
	}
	return 0;
}

/* The row getopt_long returned c (and idx) for. */
static const struct pb_opt *opt_of(const struct pb_cmd *cmd, int c, int idx)
{
	unsigned int i;

	if (c == 0)
		return &cmd->opts[idx];
	for (i = 0; i < cmd->nopts; i++)
		if (cmd->opts[i].short_name == c)
			return &cmd->opts[i];
	return NULL;
}

/* The command's hint for an unknown "--name" or "--name=value"; NULL when it has none. */
/*
 * Other tools' flags, answered with ours where a command has them (tcpreplay's; go-pktgen's
 * own are pktbench's already): the flag, the option of ours that must exist, the answer.
 */
static const char *const opt_foreign[][3] = {
	{ "-l", "loop", "tcpreplay's -l N is --loop N" },
	{ "-x", "multiplier", "tcpreplay's -x X is --multiplier X" },
	{ "-K", "preload", "tcpreplay's -K is --preload always" },
	{ "-t", "topspeed", "tcpreplay's -t is --topspeed" },
	{ "--mbps", "rate", "tcpreplay's --mbps M is --rate MMbit (on the wire)" },
	{ "--intf1", "iface", "tcpreplay's --intf1 IF is --iface IF" },
	{ "--preload-pcap", "preload", "tcpreplay's --preload-pcap is --preload always" },
	{ "--oneatatime", "replay", "no step-by-step replay: --pps 1 sends a frame a second" },
};

static const char *opt_foreign_hint(const struct pb_cmd *cmd, const char *what)
{
	size_t len = strcspn(what, "=");
	unsigned int i;

	for (i = 0; i < sizeof(opt_foreign) / sizeof(opt_foreign[0]); i++)
		if (strlen(opt_foreign[i][0]) == len && !strncmp(opt_foreign[i][0], what, len) &&
		    pb_cmd_opt(cmd, opt_foreign[i][1]))
			return opt_foreign[i][2];
	return NULL;
}

/* "did you mean --NAME?" for a long option within a few edits of one of cmd's, or NULL. */
static const char *opt_suggest(const struct pb_cmd *cmd, const char *what, char *buf, size_t len)
{
	const char *best = NULL;
	unsigned int i, d = 99;
	char name[64];

	if (strncmp(what, "--", 2) || strcspn(what + 2, "=") >= sizeof(name))
		return NULL;
	snprintf(name, sizeof(name), "%.*s", (int)strcspn(what + 2, "="), what + 2);
	for (i = 0; i < cmd->nopts; i++)
		best = opt_closest(name, cmd->opts[i].name, best, &d);
	if (!best)
		return NULL;
	snprintf(buf, len, "did you mean --%s?", best);
	return buf;
}

const char *pb_cmd_suggest(const char *word)
{
	const char *best = NULL;
	unsigned int i, d = 99;

	for (i = 0; i < pb_cmd_usage_count; i++)
		if (pb_cmd_usage_list[i]->run)
			best = opt_closest(word, pb_cmd_usage_list[i]->name, best, &d);
	return best;
}

static const char *opt_hint(const struct pb_cmd *cmd, const char *what)
{
	size_t len;
	unsigned int i;

	if (!cmd->hints || strncmp(what, "--", 2))
		return NULL;
	what += 2;
	len = strcspn(what, "=");
	for (i = 0; cmd->hints[i] && cmd->hints[i + 1]; i += 2)
		if (strlen(cmd->hints[i]) == len && !strncmp(cmd->hints[i], what, len))
			return cmd->hints[i + 1];
	return NULL;
}

/* The bytes row o's value takes in dst. */
static size_t opt_size(const struct pb_opt *o)
{
	switch (o->type) {
	case OPT_STR:
	case OPT_METHODS:
	case OPT_CONFIG:
		return o->max;
	case OPT_SECS:
	case OPT_RATE:
	case OPT_PCT:
		return sizeof(double);
	case OPT_U64:
		return sizeof(uint64_t);
	case OPT_U32:
		return sizeof(uint32_t);
	case OPT_PORT:
		return sizeof(uint16_t);
	case OPT_ADDR:
		return sizeof(struct pb_addr);
	case OPT_MAC:
		return 6;
	case OPT_FLAG:
		return sizeof(bool);
	case OPT_ENUM:
	case OPT_COUNT:
		return sizeof(int);
	case OPT_CPUS:
		return sizeof(uint32_t) * o->max;
	case OPT_SWEEP:
		return sizeof(struct pb_sweep);
	case OPT_HELP:
	case OPT_VERSION:
		break;
	}
	return 0;
}

/* Row o in dst back to its value in defs (the defaults), with what its flag_off holds. */
static void opt_reset(const struct pb_opt *o, void *dst, const void *defs)
{
	size_t flag = sizeof(bool);

	memcpy((char *)dst + o->off, (const char *)defs + o->off, opt_size(o));
	if (o->type == OPT_CPUS)
		flag = sizeof(uint32_t);
	else if (o->flags & PB_OPTF_PROFILE) /* a profile is a sweep; a plain rate, not */
		flag = ((struct pb_sweep *)((char *)dst + o->flag_off))->profile
			       ? sizeof(struct pb_sweep)
			       : 0;
	if (o->flag_off && flag)
		memcpy((char *)dst + o->flag_off, (const char *)defs + o->flag_off, flag);
}

/*
 * An option the user gave: its row, the kind a --sweep names (or the value an enum row took),
 * and whether a file gave it.
 */
struct opt_given {
	unsigned int row;
	char kind[16]; /* a --sweep's NAME ("frame-size"), an enum's value ("json"); else "" */
	bool file;
};

struct opt_givens {
	struct opt_given g[PB_GIVEN_MAX];
	unsigned int n;
};

/* Notes row o as given; the command line's second word for a row replaces its first. */
static void opt_note(struct opt_givens *gs, const struct pb_cmd *cmd, const struct pb_opt *o,
		     const char *kind, bool file)
{
	unsigned int i, row = (unsigned int)(o - cmd->opts);

	if (o->type == OPT_CONFIG || o->type == OPT_HELP || o->type == OPT_VERSION)
		return;
	for (i = 0; i < gs->n && gs->g[i].row != row; i++)
		;
	if (i < gs->n && file)
		return; /* the command line's, which overrides the file's */
	if (i == gs->n && gs->n == PB_GIVEN_MAX)
		return;
	gs->n += i == gs->n;
	gs->g[i].row = row;
	gs->g[i].file = file;
	snprintf(gs->g[i].kind, sizeof(gs->g[i].kind), "%.*s", (int)strcspn(kind, "="), kind);
}

/* Token tok's index in toks ("NAME", "sweep=KIND", "sweep"), or -1. */
static int opt_token(const struct pb_cmd *cmd, const struct opt_given *g, const char *const *toks)
{
	const char *name = cmd->opts[g->row].name;
	int i;

	for (i = 0; toks[i]; i++) {
		size_t len = strcspn(toks[i], "=");

		if (strlen(name) == len && !strncmp(name, toks[i], len) &&
		    (!toks[i][len] || !strcmp(toks[i] + len + 1, g->kind)))
			return i;
	}
	return -1;
}

/*
 * "--sweep frame-size=", "--count", or with value "--format json" (a file's: without the
 * dashes): an enum's value is said where the rule names it.
 */
static const char *opt_given_label(const struct pb_cmd *cmd, const struct opt_given *g, bool value,
				   char *buf, size_t len)
{
	bool sweep = cmd->opts[g->row].type == OPT_SWEEP, kind = g->kind[0] && (sweep || value);

	snprintf(buf, len, "%s%s%s%s", g->file ? "" : "--", cmd->opts[g->row].name, kind ? " " : "",
		 kind ? g->kind : "");
	if (kind && sweep && strlen(buf) + 1 < len)
		strcat(buf, "=");
	return buf;
}

/* Whether the token of c that g is names a value ("format=json"). */
static bool opt_token_valued(const struct pb_cmd *cmd, const struct opt_given *g,
			     const struct pb_conflict *c)
{
	int i = opt_token(cmd, g, c->opts), j = c->with[0] ? opt_token(cmd, g, c->with) : -1;

	return (i >= 0 && strchr(c->opts[i], '=')) || (j >= 0 && strchr(c->with[j], '='));
}

/* Whether one of gs is token tok. */
static bool opt_given_any(const struct pb_cmd *cmd, const struct opt_givens *gs, const char *tok)
{
	const char *const toks[] = { tok, NULL };
	unsigned int i;

	for (i = 0; tok && i < gs->n; i++)
		if (opt_token(cmd, &gs->g[i], toks) >= 0)
			return true;
	return false;
}

/* Whether a and b are a conflict of cmd's: *c the entry, *swap when b comes first in it. */
static bool opt_conflict(const struct pb_cmd *cmd, const struct opt_givens *gs,
			 const struct opt_given *a, const struct opt_given *b,
			 const struct pb_conflict **c, bool *swap)
{
	const struct pb_conflict *e;
	int ia, ib;

	for (e = cmd->conflicts; e && e->opts[0] && a->row != b->row; e++) {
		ia = opt_token(cmd, a, e->opts);
		ib = opt_token(cmd, b, e->with[0] ? e->with : e->opts);
		if (ia >= 0 && ib >= 0 && (e->with[0] || ia != ib) &&
		    !opt_given_any(cmd, gs, e->unless)) {
			*c = e;
			*swap = !e->with[0] && ib < ia;
			return true;
		}
	}
	return false;
}

/*
 * The first conflict among the givens whose sources are file_a and file_b, in err; with
 * file_a != file_b, the file's side is dropped from gs (and set back to its default in dst
 * from defs) instead: the command line overrides the file. 0, or -EINVAL.
 */
static int opt_conflicts(const struct pb_cmd *cmd, struct opt_givens *gs, bool file_a, bool file_b,
			 void *dst, const void *defs, const char *path, char *err, size_t errlen)
{
	const struct pb_conflict *c;
	char la[48], lb[48];
	unsigned int i, j;
	bool swap;

	for (i = 0; i < gs->n; i++) {
		for (j = 0; j < gs->n; j++) {
			struct opt_given *a = &gs->g[i], *b = &gs->g[j];

			if (a->file != file_a || b->file != file_b ||
			    !opt_conflict(cmd, gs, a, b, &c, &swap))
				continue;
			if (file_a == file_b) {
				/* named in the table's order, whatever order they came in */
				opt_given_label(cmd, swap ? b : a,
						opt_token_valued(cmd, swap ? b : a, c), la,
						sizeof(la));
				opt_given_label(cmd, swap ? a : b,
						opt_token_valued(cmd, swap ? a : b, c), lb,
						sizeof(lb));
				snprintf(err, errlen, "%s%s%s and %s %s", file_a ? path : "",
					 file_a ? ": " : "", la, lb, c->why);
				return -EINVAL;
			}
			opt_reset(&cmd->opts[(a->file ? a : b)->row], dst, defs);
			*(a->file ? a : b) = gs->g[--gs->n];
			return opt_conflicts(cmd, gs, file_a, file_b, dst, defs, path, err, errlen);
		}
	}
	return 0;
}

/* The scenario file cmd's OPT_CONFIG row holds in dst ("" when none). */
static const char *opt_config_path(const struct pb_cmd *cmd, const void *dst)
{
	unsigned int i;

	for (i = 0; i < cmd->nopts; i++)
		if (cmd->opts[i].type == OPT_CONFIG)
			return (const char *)dst + cmd->opts[i].off;
	return "";
}

/*
 * An option given without any of the options it needs (cmd->needs): refused in err, naming
 * them, with the file's path when a scenario gave it. 0, or -EINVAL.
 */
static int opt_needs(const struct pb_cmd *cmd, const struct opt_givens *gs, const char *path,
		     char *err, size_t errlen)
{
	const struct pb_need *const *t;
	const struct pb_need *e;
	unsigned int i, k, have;
	char label[48];
	int off;

	for (t = cmd->needs; t && *t; t++) {
		for (e = *t; e->opt; e++) {
			const char *const tok[] = { e->opt, NULL };

			for (i = 0; i < gs->n && opt_token(cmd, &gs->g[i], tok) < 0; i++)
				;
			if (i == gs->n)
				continue;
			/* a need this command has no row for cannot be met: not its rule */
			for (k = 0, have = 0; k < 6 && e->needs[k]; k++) {
				/* "lab=router": the row is lab */
				char name[32];

				snprintf(name, sizeof(name), "%.*s", (int)strcspn(e->needs[k], "="),
					 e->needs[k]);
				have += pb_cmd_opt(cmd, name) != NULL;
			}
			if (!have)
				continue;
			for (k = 0; k < 6 && e->needs[k] && !opt_given_any(cmd, gs, e->needs[k]);
			     k++)
				;
			if (k < 6 && e->needs[k])
				continue;
			opt_given_label(cmd, &gs->g[i], false, label, sizeof(label));
			off = snprintf(err, errlen, "%s%s%s goes with ", gs->g[i].file ? path : "",
				       gs->g[i].file ? ": " : "", label);
			for (k = 0; k < 6 && e->needs[k] && off > 0 && (size_t)off < errlen; k++) {
				/* "sweep=pps" is --sweep pps=, "lab=router" --lab router */
				size_t len = strcspn(e->needs[k], "=");
				bool sweep = !strncmp(e->needs[k], "sweep=", 6);

				off += snprintf(err + off, errlen - (size_t)off, "%s--%.*s%s%s",
						!k			       ? ""
						: k + 1 < 6 && e->needs[k + 1] ? ", "
									       : " or ",
						(int)len, e->needs[k], e->needs[k][len] ? " " : "",
						e->needs[k] + len + !!e->needs[k][len]);
				if (sweep && off > 0 && (size_t)off < errlen)
					off += snprintf(err + off, errlen - (size_t)off, "=");
			}
			if (off > 0 && (size_t)off < errlen)
				snprintf(err + off, errlen - (size_t)off, ": %s", e->why);
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * The scenario file path into dst, its options noted in gs: two of them that conflict make a
 * bad file; one that conflicts with the command line's goes back to its default.
 */
static int opt_load(const struct pb_cmd *cmd, void *dst, const char *path, struct opt_givens *gs,
		    char *err, size_t errlen)
{
	bool *given = calloc(cmd->nopts, sizeof(*given));
	void *defs = malloc(cmd->size);
	unsigned int i;
	int ret;

	ret = given && defs ? pb_yaml_load(cmd, dst, path, given, err, errlen) : -ENOMEM;
	if (ret == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	for (i = 0; !ret && i < cmd->nopts; i++) {
		const struct pb_opt *o = &cmd->opts[i];
		const struct pb_sweep *sw = (const struct pb_sweep *)((char *)dst + o->off);

		/* a flag the file turns off is not one it gave */
		if (!given[i] || (o->type == OPT_FLAG && !*(bool *)((char *)dst + o->off)))
			continue;
		opt_note(gs, cmd, o,
			 o->type == OPT_SWEEP && sw->kind ? o->names[sw->kind - 1]
			 : o->type == OPT_ENUM		  ? o->names[*(int *)((char *)dst + o->off)]
							  : "",
			 true);
	}
	ret = ret ?: pb_cmd_defaults(cmd, defs, err, errlen);
	ret = ret ?: opt_conflicts(cmd, gs, true, true, dst, defs, path, err, errlen);
	ret = ret ?: opt_conflicts(cmd, gs, true, false, dst, defs, path, err, errlen);
	free(given);
	free(defs);
	return ret;
}

/*
 * msg (a rate refused for its unit) with what the value is in this run, where cmd can tell
 * (cmd->unit_hint) and the rest of the line was read without error (whole).
 */
static void opt_unit_hint(const struct pb_cmd *cmd, const void *dst, const struct pb_opt *o,
			  const char *arg, bool whole, char *msg, size_t len)
{
	enum pb_unit unit;
	size_t off = strlen(msg);
	double v;

	if (!whole || !cmd->unit_hint || pb_parse_unit(arg, &v, &unit, NULL, 0) ||
	    (unit != PB_UNIT_BITS && unit != PB_UNIT_BYTES) || off + 1 >= len)
		return;
	cmd->unit_hint(dst, o, unit == PB_UNIT_BYTES ? v * 8 : v, arg, msg + off, len - off);
}

/*
 * One pass of getopt_long over argv. config_only: only scenario files are looked at (and
 * loaded), nothing is reported; else every option is applied over what is there.
 */
static int opt_pass(const struct pb_cmd *cmd, void *dst, int argc, char **argv_in, bool config_only,
		    struct opt_givens *gs, enum pb_opt_action *action, char **args, char *err,
		    size_t errlen)
{
	struct option *lopts;
	char *sopts, **argv;
	const char *config = NULL, *darg = NULL;
	const struct pb_opt *deferred = NULL;
	unsigned int nargs = 0;
	const char *hint;
	char suggest[96], dmsg[512];
	int c, idx, ret = 0;

	/* getopt_long permutes what it parses: a copy keeps the caller's order for every pass */
	argv = calloc((size_t)argc + 1, sizeof(*argv));
	ret = argv ? opt_getopt_tables(cmd, &lopts, &sopts) : -ENOMEM;
	if (ret) {
		free(argv);
		snprintf(err, errlen, "out of memory");
		return ret;
	}
	memcpy(argv, argv_in, (size_t)argc * sizeof(*argv));
	/* 0, not 1: glibc then starts afresh, so a command can be parsed more than once */
	optind = 0;
	opterr = 0;
	while (!ret && (c = getopt_long(argc, argv, sopts, lopts, &idx)) != -1) {
		const struct pb_opt *o;

		if (c == '?' || c == ':') {
			const char *what =
				optopt ? (char[]){ '-', (char)optopt, 0 } : argv[optind - 1];

			if (config_only)
				continue;
			hint = c == '?' ? opt_hint(cmd, what) : NULL;
			hint = hint ?: c == '?' ? opt_foreign_hint(cmd, what) : NULL;
			hint = hint
				       ?: c == '?'
					  ? opt_suggest(cmd, what, suggest, sizeof(suggest))
					  : NULL;
			if (hint)
				snprintf(err, errlen, "unknown option '%s': %s (see --help)", what,
					 hint);
			else
				snprintf(err, errlen, "%s '%s' (see --help)",
					 c == ':' ? "missing value for" : "unknown option", what);
			ret = -EINVAL;
			break;
		}
		o = opt_of(cmd, c, idx);
		if (!o) {
			ret = -EINVAL;
			break;
		}
		if (config_only) {
			if (o->type == OPT_CONFIG)
				config = optarg;
			opt_note(gs, cmd, o,
				 o->type == OPT_SWEEP || o->type == OPT_ENUM ? optarg : "", false);
			continue;
		}
		if (o->type == OPT_HELP)
			*action = PB_OPT_HELP;
		if (o->type == OPT_VERSION)
			*action = PB_OPT_VERSION;
		ret = opt_apply(cmd, o, dst, optarg, err, errlen);
		/*
		 * a rate in another kind of unit: said once the whole line is read, when what it
		 * means in this run (a bit rate at its frame size) can be told; the first error
		 * is the one said
		 */
		if (ret == -EDOM && !deferred) {
			deferred = o;
			darg = optarg;
			snprintf(dmsg, sizeof(dmsg), "%s", err);
			ret = 0;
		}
	}
	for (; !ret && !config_only && optind < argc; optind++) {
		if (nargs == cmd->nargs && cmd->min_args && cmd->min_args < cmd->nargs) {
			/* a list of arguments: say how long it may be */
			snprintf(err, errlen, "unexpected argument '%s': at most %u (see --help)",
				 argv[optind], cmd->nargs);
			ret = -EINVAL;
			break;
		}
		if (nargs == cmd->nargs) {
			hint = !cmd->run && !nargs ? pb_cmd_suggest(argv[optind]) : NULL;
			if (hint)
				snprintf(err, errlen,
					 "unknown command '%s': did you mean %s? (see --help)",
					 argv[optind], hint);
			else
				snprintf(err, errlen, "unexpected argument '%s' (see --help)",
					 argv[optind]);
			ret = -EINVAL;
			break;
		}
		args[nargs++] = argv[optind];
	}
	if (!ret && !config_only && nargs < (cmd->min_args ? cmd->min_args : cmd->nargs) &&
	    *action == PB_OPT_RUN) {
		snprintf(err, errlen, "%s needed (see --help)", cmd->args);
		ret = -EINVAL;
	}
	if (deferred) {
		opt_unit_hint(cmd, dst, deferred, darg, !ret, dmsg, sizeof(dmsg));
		snprintf(err, errlen, "%s", dmsg);
		ret = -EINVAL;
	}
	free(lopts);
	free(sopts);
	free(argv);
	/* defaults, then the scenario file, then the command line: the last word wins */
	if (!ret && config)
		ret = opt_load(cmd, dst, config, gs, err, errlen);
	return ret;
}

int pb_cmd_parse(const struct pb_cmd *cmd, void *dst, int argc, char **argv,
		 enum pb_opt_action *action, char **args, char *err, size_t errlen)
{
	struct opt_givens *gs = calloc(1, sizeof(*gs));
	struct pb_given *kept = cmd->given_off ? (void *)((char *)dst + cmd->given_off) : NULL;
	unsigned int i;
	int ret;

	err[0] = '\0';
	*action = PB_OPT_RUN;
	ret = gs ? pb_cmd_defaults(cmd, dst, err, errlen) : -ENOMEM;
	if (!ret)
		ret = opt_pass(cmd, dst, argc, argv, true, gs, action, args, err, errlen);
	if (!ret)
		ret = opt_pass(cmd, dst, argc, argv, false, NULL, action, args, err, errlen);
	/* two options on the command line that set the same thing: neither is ignored */
	if (!ret && *action == PB_OPT_RUN)
		ret = opt_conflicts(cmd, gs, false, false, dst, NULL, NULL, err, errlen);
	/* nor one that does nothing without another */
	if (!ret && *action == PB_OPT_RUN)
		ret = opt_needs(cmd, gs, opt_config_path(cmd, dst), err, errlen);
	for (i = 0; !ret && kept && i < gs->n; i++)
		kept->name[kept->n++] = cmd->opts[gs->g[i].row].name;
	free(gs);
	if (ret == -ENOMEM && !err[0])
		snprintf(err, errlen, "out of memory");
	if (ret || *action != PB_OPT_RUN || !cmd->validate)
		return ret;
	return cmd->validate(dst, err, errlen);
}

/* text from *col on, words wrapped at width, continued lines indented by indent. */
static void usage_wrap(FILE *f, const char *text, int indent, int *col, int width)
{
	const char *p = text;
	/*
	 * a word opens a line (the call's first, or after a break) or follows a space: by what
	 * was written, not by the column, which a caller may start left of the indent (the exit
	 * statuses did: "0every row ran", "1arunfailed")
	 */
	bool first = true;

	while (*p) {
		size_t w = strcspn(p, " \n");

		if (!first && *col + 1 + (int)w > width) {
			fprintf(f, "\n%*s", indent, "");
			*col = indent;
		} else if (!first) {
			fputc(' ', f);
			(*col)++;
		}
		fprintf(f, "%.*s", (int)w, p);
		*col += (int)w;
		first = false;
		p += w;
		while (*p == ' ')
			p++;
		if (*p == '\n') {
			/* a line break in the text: keep it */
			p++;
			fprintf(f, "\n%*s", indent, "");
			*col = indent;
			first = true;
		}
	}
}

/* --help fits an 80-column terminal: labels in a column of their own, help beside them */
#define USAGE_WIDTH    80
#define USAGE_LABEL_W  24
#define USAGE_HELP_COL (2 + USAGE_LABEL_W + 2)

/* Paragraphs ("\n\n" apart) wrapped to USAGE_WIDTH columns. */
static void usage_paragraphs(FILE *f, const char *text)
{
	const char *p = text;

	while (*p) {
		const char *end = strstr(p, "\n\n");
		size_t len = end ? (size_t)(end - p) : strlen(p);
		char *para = strndup(p, len);
		int col = 0;

		if (para) {
			usage_wrap(f, para, 0, &col, USAGE_WIDTH);
			fputs("\n\n", f);
			free(para);
		}
		p += len;
		while (*p == '\n')
			p++;
	}
}

/*
 * "  LEFT    help (default D)", the help wrapped under itself. A label wider than its column
 * has the line to itself and the help starts under it: beside it, the two read as one
 * ("--preload auto|always|never--replay: ...").
 */
static void usage_row(FILE *f, const char *left, const char *help, const char *def)
{
	int col = USAGE_HELP_COL;

	if (strlen(left) > USAGE_LABEL_W)
		fprintf(f, "  %s\n%*s", left, USAGE_HELP_COL, "");
	else
		fprintf(f, "  %-*s  ", USAGE_LABEL_W, left);
	usage_wrap(f, help, USAGE_HELP_COL, &col, USAGE_WIDTH);
	if (def) {
		/* one unit: "(default" and its value on the same line */
		int len = (int)strlen(def) + 10;

		if (col + 1 + len > USAGE_WIDTH)
			fprintf(f, "\n%*s(default %s)", USAGE_HELP_COL, "", def);
		else
			fprintf(f, " (default %s)", def);
	}
	fputc('\n', f);
}

static bool cmd_names_methods(const struct pb_cmd *cmd)
{
	unsigned int i;

	for (i = 0; i < cmd->nopts; i++)
		if (cmd->opts[i].type == OPT_METHODS)
			return true;
	return false;
}

/* "  NAMES  help ...": one line whatever the names' width, the help cut at a word to fit */
static void usage_method(FILE *f, const char *names, const char *help)
{
	int w = (int)strlen(names) > 30 ? (int)strlen(names) : 30;
	int room = USAGE_WIDTH - (2 + w + 1), len = (int)strlen(help), cut = len;

	if (len > room) {
		for (cut = room - 4; cut > 0 && help[cut] != ' '; cut--)
			;
		cut = cut > 0 ? cut : 0;
	}
	fprintf(f, "  %-*s %.*s%s\n", w, names, cut, help, cut < len ? " ..." : "");
}

static void usage_methods(FILE *f)
{
	unsigned int i, j;

	fprintf(f, "\nMethods (built into this binary):\n");
	for (i = 0; i < pb_methods_count; i++) {
		const struct pb_method *m = pb_methods[i];
		char names[80];
		int off = snprintf(names, sizeof(names), "%s", m->name);

		for (j = 0; j < 3 && m->aliases[j].name; j++)
			off += snprintf(names + off, sizeof(names) - off, "%s%s",
					j ? "," : " (alias ", m->aliases[j].name);
		if (m->aliases[0].name)
			snprintf(names + off, sizeof(names) - off, ")");
		/*
		 * one line each, never wrapped (scripts read the names off this list): the help
		 * cut at a word to fit, whole in docs/methods.md and the man page
		 */
		usage_method(f, names, m->help);
	}
	usage_method(f, "benchmark",
		     "every method that can run here, one after another, then a "
		     "table by packets/s");
}

/* "usage: pktbench NAME SYNOPSIS", wrapped under its first word after the name */
static void usage_synopsis(FILE *f, const char *lead, const char *name, const char *synopsis)
{
	int col = (int)strlen(lead) + (int)strlen(name) + (name[0] ? 1 : 0);

	fprintf(f, "%s%s%s", lead, name, name[0] ? " " : "");
	usage_wrap(f, synopsis, col, &col, USAGE_WIDTH);
	fputc('\n', f);
}

const struct pb_cmd *const *pb_cmd_usage_list;
unsigned int pb_cmd_usage_count;

/* Whether row o is under one of the headings cmd lists. */
static bool usage_listed(const struct pb_cmd *cmd, const struct pb_opt *o)
{
	unsigned int g;

	for (g = 0; o->group && cmd->groups[g]; g++)
		if (!strcmp(cmd->groups[g], o->group))
			return true;
	return false;
}

/*
 * "TITLE:" and the rows under it, in the table's order: group NULL is every row, "" those
 * under no heading cmd lists. Nothing when no row is under it.
 */
static void usage_group(FILE *f, const struct pb_cmd *cmd, const char *title, const char *group,
			bool *first)
{
	bool said = false;
	unsigned int i;

	for (i = 0; i < cmd->nopts; i++) {
		const struct pb_opt *o = &cmd->opts[i];
		char left[64];

		if (group &&
		    (group[0] ? !o->group || strcmp(o->group, group) : usage_listed(cmd, o)))
			continue;
		if (!said)
			fprintf(f, "%s%s:\n", *first ? "" : "\n", title);
		said = true;
		*first = false;
		pb_opt_label(o, left, sizeof(left));
		usage_row(f, left, o->help, o->def && o->type != OPT_FLAG ? o->def : NULL);
	}
}

void pb_cmd_usage(const struct pb_cmd *cmd, FILE *f)
{
	bool top = !cmd->run, first = true;
	unsigned int i, g;

	usage_synopsis(f, "usage: pktbench ", top ? "" : cmd->name, cmd->synopsis);
	for (i = 0; top && i < pb_cmd_usage_count; i++)
		if (pb_cmd_usage_list[i]->run)
			usage_synopsis(f, "       pktbench ", pb_cmd_usage_list[i]->name,
				       pb_cmd_usage_list[i]->synopsis);
	fputc('\n', f);
	usage_paragraphs(f, cmd->description);
	if (!cmd->groups)
		usage_group(f, cmd, "Options", NULL, &first);
	for (g = 0; cmd->groups && cmd->groups[g]; g++)
		usage_group(f, cmd, cmd->groups[g], cmd->groups[g], &first);
	/* a row under a heading the command does not list is still shown */
	if (cmd->groups)
		usage_group(f, cmd, "Other options", "", &first);
	if (cmd_names_methods(cmd))
		usage_methods(f);
	if (top && pb_cmd_usage_count > 1) {
		fprintf(f, "\nCommands (pktbench COMMAND --help tells more):\n");
		for (i = 0; i < pb_cmd_usage_count; i++)
			if (pb_cmd_usage_list[i]->run)
				usage_row(f, pb_cmd_usage_list[i]->name,
					  pb_cmd_usage_list[i]->summary, NULL);
	}
	if (cmd->exit_status) {
		const char *p = cmd->exit_status;

		fprintf(f, "\nExit status:\n");
		while (*p) {
			size_t len = strcspn(p, "\n"), code = strcspn(p, " \n");
			char *line = strndup(p + code, len - code);
			int col = 7;

			/* "  CODE meaning", the meaning wrapped under itself */
			fprintf(f, "  %-4.*s ", (int)code, p);
			if (line)
				usage_wrap(f, line + strspn(line, " "), 7, &col, USAGE_WIDTH);
			fputc('\n', f);
			free(line);
			p += len + (p[len] == '\n');
		}
	}
}
