// Every time zone the runtime knows (Intl), read once: the list does not change while the process
// runs. The account page's choice and the event form's searchable list offer it.

/** The IANA zones, as `Intl.supportedValuesOf("timeZone")` lists them. */
export const TIME_ZONES: readonly string[] = Intl.supportedValuesOf("timeZone");
