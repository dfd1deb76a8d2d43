// SPDX-License-Identifier: GPL-2.0
/* The variant registry (mbd_variant.h): lookups in the build's lists. */
#include <string.h>

#include "mbd_variant.h"

size_t mbd_variant_count(void)
{
	size_t n = 0;

	while (mbd_variants[n])
		n++;
	return n;
}

const struct mbd_variant *mbd_variant_find(const char *name)
{
	for (size_t i = 0; mbd_variants[i]; i++)
		if (strcmp(mbd_variants[i]->name, name) == 0)
			return mbd_variants[i];
	return NULL;
}

const struct mbd_variant *mbd_variant_uncounted(const struct mbd_variant *v)
{
	for (size_t i = 0; mbd_variants_uncounted[i]; i++)
		if (strcmp(mbd_variants_uncounted[i]->name, v->name) == 0)
			return mbd_variants_uncounted[i];
	return NULL;
}

bool mbd_variants_distinct(const struct mbd_variant *const *vs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (!vs[i])
			return false;
		for (size_t j = 0; j < i; j++)
			if (vs[j] == vs[i])
				return false;
	}
	return true;
}

const char *mbd_variant_kind_name(enum mbd_variant_kind k)
{
	switch (k) {
	case MBD_KIND_REFERENCE: return "reference";
	case MBD_KIND_PATCH: return "patch";
	case MBD_KIND_MUTANT: return "mutant";
	case MBD_KIND_KERNEL: return "kernel";
	}
	return "?";
}
