#ifndef GOT_PROBE_H
#define GOT_PROBE_H
/* Prints the write line: the module and address the rxe provider's slot for
 * verbs_register_driver_N holds. */
void report_provider_slot(void);
#endif
