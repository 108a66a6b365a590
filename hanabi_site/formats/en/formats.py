# "Sat 28 Nov, 14:05": the site's English since its first page.
DATE_FORMAT = "j F Y"
SHORT_DATE_FORMAT = "j M Y"
TIME_FORMAT = "H:i"
SHORT_DATETIME_FORMAT = "D j M, H:i"
DATETIME_FORMAT = "D j M, H:i e"
