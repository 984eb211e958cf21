/* write_scenario NAME DIR: writes the synthetic archive NAME into DIR
 * (see scenarios.h); `write_scenario --list` names them all. */
#include <stdio.h>
#include <string.h>

#include "scenarios.h"

static const struct {
    const char *name;
    void (*write)(const char *dir);
} scenarios[] = {
    {"blocking_behind_isend", scenario_blocking_behind_isend},
    {"out_of_order", scenario_out_of_order},
    {"cancelled", scenario_cancelled},
    {"wildcard", scenario_wildcard},
    {"request_errors", scenario_request_errors},
    {"communicators", scenario_communicators},
    {"no_world_group", scenario_no_world_group},
    {"rank_out_of_range", scenario_rank_out_of_range},
    {"idle_thread", scenario_idle_thread},
    {"duplicate_definition", scenario_duplicate_definition},
    {"missing_receive", scenario_missing_receive},
    {"negative_duration", scenario_negative_duration},
    {"clock", scenario_clock},
    {"no_clock", scenario_no_clock},
    {"empty", scenario_empty},
    {"ring", scenario_ring},
    {"tags", scenario_tags},
    {"late_sender", scenario_late_sender},
    {"late_receiver", scenario_late_receiver},
    {"collective_waits", scenario_collective_waits},
    {"no_wait", scenario_no_wait},
    {"wait_edges", scenario_wait_edges},
    {"clock_reference", scenario_clock_reference},
    {"clock_skewed", scenario_clock_skewed},
    {"clock_single_offset", scenario_clock_single_offset},
    {"order_violations", scenario_order_violations},
};

int main(int argc, char **argv)
{
    size_t n = sizeof scenarios / sizeof scenarios[0];
    if (argc == 2 && strcmp(argv[1], "--list") == 0) {
        for (size_t i = 0; i < n; i++)
            puts(scenarios[i].name);
        return 0;
    }
    if (argc != 3) {
        fprintf(stderr, "usage: write_scenario NAME DIR | --list\n");
        return 2;
    }
    for (size_t i = 0; i < n; i++) {
        if (strcmp(argv[1], scenarios[i].name) == 0) {
            scenarios[i].write(argv[2]);
            return 0;
        }
    }
    fprintf(stderr, "write_scenario: no scenario '%s'\n", argv[1]);
    return 2;
}
