// SPDX-License-Identifier: GPL-2.0
/*
 * pbdump: Prometheus' protobuf exposition (delimited MetricFamily
 * messages, as kstats serve writes them) read from stdin with protoc-c's
 * unpack, one line per series:
 *   NAME{LABEL="VALUE",...} count N sum S schema S zt Z zero N buckets I:C,...
 * (buckets: each native bucket's index and absolute count), or for a
 * counter NAME{...} value V.  Exit 1 on bytes that do not decode.
 */
#include <stdio.h>
#include <stdlib.h>

#include "io/prometheus/client/metrics.pb-c.h"

int main(void)
{
	static unsigned char buf[1 << 24];
	size_t len = fread(buf, 1, sizeof(buf), stdin), pos = 0;

	while (pos < len) {
		Io__Prometheus__Client__MetricFamily *f;
		unsigned long long n = 0;
		size_t m;
		int sh = 0;

		while (pos < len && (buf[pos] & 0x80)) {
			n |= (unsigned long long)(buf[pos++] & 0x7f) << sh;
			sh += 7;
		}
		if (pos >= len)
			return 1;
		n |= (unsigned long long)buf[pos++] << sh;
		if (n > len - pos)
			return 1;
		f = io__prometheus__client__metric_family__unpack(NULL, n, buf + pos);
		if (!f)
			return 1;
		pos += n;
		for (m = 0; m < f->n_metric; m++) {
			const Io__Prometheus__Client__Metric *me = f->metric[m];
			const Io__Prometheus__Client__Histogram *h = me->histogram;
			size_t k, j, d = 0;
			long long c = 0;
			int i = 0;

			printf("%s{", f->name);
			for (k = 0; k < me->n_label; k++)
				printf("%s%s=\"%s\"", k ? "," : "", me->label[k]->name,
				       me->label[k]->value);
			printf("}");
			if (me->counter) {
				printf(" value %.17g\n", me->counter->value);
				continue;
			}
			if (!h)
				return 1;
			printf(" count %llu sum %.17g schema %d zt %.17g zero %llu buckets ",
			       (unsigned long long)h->sample_count, h->sample_sum, h->schema,
			       h->zero_threshold, (unsigned long long)h->zero_count);
			for (k = 0; k < h->n_positive_span; k++) {
				i += h->positive_span[k]->offset;
				for (j = 0; j < h->positive_span[k]->length; j++, i++) {
					if (d >= h->n_positive_delta)
						return 1;
					c += h->positive_delta[d++];
					if (c)
						printf("%s%d:%lld", d > 1 ? "," : "", i, c);
				}
			}
			printf("%s\n", d ? "" : "-");
		}
		io__prometheus__client__metric_family__free_unpacked(f, NULL);
	}
	return 0;
}
