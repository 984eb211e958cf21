/* Counters in a build without PAPI (configure --without-papi, or no
 * libpapi-dev): a config that names events gets one message, the output
 * lists them as unavailable, and the run goes on without counters. */
#include <stdio.h>

#include "counters/counters.h"

static struct ht_counters_info info;
static bool configured;

uint32_t ht_counters_setup(const struct ht_config *cfg)
{
    if (cfg->counters.count == 0)
        return 0;
    configured = true;
    info.papi_version = "";
    for (unsigned i = 0; i < cfg->counters.count; i++)
        info.unavailable[info.nunavailable++] =
            (struct ht_counter_unavailable){cfg->counters.items[i], "hooktrace was built without PAPI"};
    if (ht_counters_speaks_for_job())
        fprintf(stderr, "hooktrace: counters: hooktrace was built without PAPI (configure "
                    "--with-papi); the run goes on without counters\n");
    return 0;
}

const struct ht_counters_info *ht_counters_info(void)
{
    return configured ? &info : NULL;
}

void ht_counters_entered(struct ht_thread *t, struct ht_node *n)
{
    (void)t;
    (void)n;
}

void ht_counters_left(struct ht_thread *t, struct ht_node *n)
{
    (void)t;
    (void)n;
}

void ht_counters_close_open(struct ht_thread *t)
{
    (void)t;
}
