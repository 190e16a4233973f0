/* carrier_body.h - the body of every kernel of xwg-clcost's carriers mode,
 * embedded in front of carriers.cl and carriers_global.cl: work-item 0
 * counts the launch, and writes its carrier only on a count that never
 * comes (so that the compiler keeps the carrier, and no launch touches
 * it). */
#define CARRIER_BODY(carrier)                                                  \
    { if (get_global_id(0) == 0) { p[0] += 1u;                               \
    if (p[0] == 0u) carrier = 1u; } }
