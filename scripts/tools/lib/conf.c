// SPDX-License-Identifier: GPL-2.0
/* The one key=value reader and its rule; see conf.h. */
#include "lib/conf.h"
#include "lib/util.h"

#include <stdlib.h>
#include <string.h>

char *conf_value(const char *text, const char *key)
{
	size_t klen = strlen(key), n;
	const char *p = text, *val = NULL, *end = NULL;
	char *out;

	while (p && *p) {
		const char *nl = strchr(p, '\n');
		const char *le = nl ? nl : p + strlen(p);

		/* the last KEY= line wins */
		if ((size_t)(le - p) > klen && !strncmp(p, key, klen) && p[klen] == '=') {
			val = p + klen + 1;
			end = le;
		}
		p = nl ? nl + 1 : NULL;
	}
	if (!val)
		return NULL;
	n = (size_t)(end - val);
	if (n >= 2 && val[0] == '\'' && val[n - 1] == '\'') {
		val++;
		n -= 2;
	}
	out = malloc(n + 1);
	if (!out)
		return NULL;
	memcpy(out, val, n);
	out[n] = '\0';
	return out;
}

char *conf_value_or_empty(const char *text, const char *key)
{
	char *v = text ? conf_value(text, key) : NULL;

	return v ? v : xstrdup("");
}
