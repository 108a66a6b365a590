"""How dates and times read in each language of the site (issue 29), replacing Django's
defaults (an American "03/28/2026 2:05 p.m." in English). Templates name a format, never
write one: "SHORT_DATETIME_FORMAT" for a deadline or a message's time (weekday, day, month,
time), "DATETIME_FORMAT" the same with the time zone (emails, read away from the site),
"SHORT_DATE_FORMAT" and "DATE_FORMAT" for a day, "TIME_FORMAT" for a time."""
