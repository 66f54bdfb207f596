// The choices of the event form that every event has (a group's or a personal one): how it
// repeats, and on which weekdays, each marked selected as the values say.
import { TIME_ZONES } from "../time-zones.js";
import type { Chrome } from "../chrome.js";
import { type EventFormValues, REPEATS, WEEKDAY_CODES } from "./event-form-values.js";
import { ruleInWords } from "./rule-words.js";

/** One `<option>`. */
export interface FormOption {
  readonly value: string;
  readonly label: string;
  readonly selected: boolean;
}

/** An option, selected when `current` holds its value. */
export function option(value: string, label: string, current: readonly string[]): FormOption {
  return { value, label, selected: current.includes(value) };
}

/** The repeat and weekday choices (a rule the form cannot show is offered as it is). */
export function timingChoices(chrome: Chrome, values: EventFormValues) {
  return {
    // The zone field's searchable list (<datalist>): every zone the runtime knows.
    timeZones: TIME_ZONES,
    repeats: [
      ...(values.repeat === "CUSTOM"
        ? [
            option(
              "CUSTOM",
              chrome.t("eventForm.repeatCustom", {
                rule: ruleInWords(values.rule, chrome.lang, (ms) => chrome.day(ms)),
              }),
              [values.repeat],
            ),
          ]
        : []),
      ...REPEATS.map((value) =>
        option(value, chrome.t(`eventForm.repeat${value || "None"}` as "eventForm.repeatNone"), [values.repeat]),
      ),
    ],
    weekdays: WEEKDAY_CODES.map((code) =>
      option(code, chrome.t(`eventForm.day${code}` as "eventForm.daySU"), values.byDay),
    ),
  };
}
