/* SPDX-License-Identifier: MIT */
/*
 * The scalar fields of a JSON object (or a CSV row) as a list, so every JSON pktbench writes
 * (the result sets, compare's verdicts) spells null, the shortest double and the out-of-memory
 * checks the same way: fill a struct pb_fields with the pb_f*() constructors, then hand it to
 * pb_json_add_fields() (writers.c).
 */
#ifndef PB_FIELDS_H
#define PB_FIELDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

enum pb_kind {
	PB_K_NULL, /* unknown, not zero: JSON null, an empty CSV field */
	PB_K_BOOL,
	PB_K_U64,
	PB_K_DBL, /* not finite: null as well (JSON has no NaN) */
	PB_K_STR,
};

struct pb_field {
	const char *name;
	enum pb_kind kind;
	union {
		bool b;
		uint64_t u;
		double d;
		struct {
			const char *s;
			size_t len;
		};
	};
};

#define PB_MAX_FIELDS 192

struct pb_fields {
	struct pb_field f[PB_MAX_FIELDS];
	unsigned int n;
};

static inline void pb_add(struct pb_fields *fs, struct pb_field f)
{
	/* Bounded so a field added without raising PB_MAX_FIELDS is dropped, not written past. */
	if (fs->n < PB_MAX_FIELDS)
		fs->f[fs->n++] = f;
}

static inline struct pb_field pb_fnull(const char *name)
{
	return (struct pb_field){ .name = name, .kind = PB_K_NULL };
}

static inline struct pb_field pb_fbool(const char *name, bool b)
{
	return (struct pb_field){ .name = name, .kind = PB_K_BOOL, .b = b };
}

static inline struct pb_field pb_fu64(const char *name, uint64_t u)
{
	return (struct pb_field){ .name = name, .kind = PB_K_U64, .u = u };
}

static inline struct pb_field pb_fdbl(const char *name, double d)
{
	return (struct pb_field){ .name = name, .kind = PB_K_DBL, .d = d };
}

/*
 * max bounds the read, since the result's strings are fixed arrays a producer may have filled
 * to the brim; 0 means a C string of any length. NULL is null.
 */
static inline struct pb_field pb_fstr(const char *name, const char *s, size_t max)
{
	if (!s)
		return pb_fnull(name);
	return (struct pb_field){
		.name = name,
		.kind = PB_K_STR,
		.s = s,
		.len = max ? strnlen(s, max) : strlen(s),
	};
}

struct json_object;
/* Adds every field of fs to the object o, in order; 0 or -ENOMEM. */
int pb_json_add_fields(struct json_object *o, const struct pb_fields *fs);
/* A new array as o's member name; NULL when memory is short. */
struct json_object *pb_json_add_array(struct json_object *o, const char *name);
/* A new object as o's member name; NULL when memory is short. */
struct json_object *pb_json_child(struct json_object *o, const char *name);
/* Appends v (a new value, NULL when its allocation failed) to arr, taking it over; -ENOMEM. */
int pb_json_push(struct json_object *arr, struct json_object *v);

#endif
