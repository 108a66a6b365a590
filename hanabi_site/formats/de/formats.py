# "Sa., 28. Nov., 14:05", as German writes a date with its weekday.
DATE_FORMAT = "j. F Y"
SHORT_DATE_FORMAT = "j. N Y"
TIME_FORMAT = "H:i"
SHORT_DATETIME_FORMAT = "D., j. N, H:i"
DATETIME_FORMAT = "D., j. N, H:i e"
