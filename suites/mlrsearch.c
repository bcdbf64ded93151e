// SPDX-License-Identifier: MIT
/* RFC 9971's MLRsearch (see mlrsearch.h): not written yet, the tests come first. */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "mlrsearch.h"

enum pb_mlr_class pb_mlr_classify(const struct pb_mlr_goal *g, const struct pb_mlr_trial *t,
				  unsigned int n, double load, struct pb_mlr_sums *sums)
{
	if (sums)
		memset(sums, 0, sizeof(*sums));
	return PB_MLR_UNDECIDED;
}

double pb_mlr_conditional(const struct pb_mlr_goal *g, const struct pb_mlr_trial *t, unsigned int n,
			  double load)
{
	return NAN;
}

void pb_mlr_relevant(const struct pb_mlr_goal *g, const struct pb_mlr_trial *t, unsigned int n,
		     struct pb_mlr_result *r)
{
	memset(r, 0, sizeof(*r));
}

int pb_mlr_init(struct pb_mlr *m, const struct pb_mlr_opts *o)
{
	memset(m, 0, sizeof(*m));
	m->o = *o;
	return 0;
}

bool pb_mlr_next(struct pb_mlr *m, double *load, double *duration_s)
{
	return false;
}

void pb_mlr_record(struct pb_mlr *m, double loss_ratio)
{
}

void pb_mlr_add(struct pb_mlr *m, double load, double duration_s, double loss_ratio)
{
}

void pb_mlr_result(const struct pb_mlr *m, unsigned int i, struct pb_mlr_result *r)
{
	memset(r, 0, sizeof(*r));
}

int pb_mlr_run(struct pb_mlr *m, pb_mlr_measure_fn measure, void *arg)
{
	return 0;
}
