/* The wait-state patterns (docs/analyze.md, "Wait states"). */
#ifndef HT_ANALYZE_WAIT_PATTERN_H
#define HT_ANALYZE_WAIT_PATTERN_H

enum wait_pattern {
    WAIT_LATE_SENDER,
    WAIT_LATE_RECEIVER,
    WAIT_AT_NXN,
    WAIT_AT_BARRIER,
    WAIT_LATE_BROADCAST,
    WAIT_EARLY_REDUCE,
    WAIT_PATTERN_COUNT
};

#endif
