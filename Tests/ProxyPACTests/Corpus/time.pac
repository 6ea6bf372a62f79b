// Time functions with ranges that are always or never true: weekdayRange, dateRange, timeRange, with and without GMT.
function FindProxyForURL(url, host) {
    var facts = [
        weekdayRange("SUN", "SAT"), weekdayRange("SUN", "SAT", "GMT"), weekdayRange("MON", "SUN"),
        weekdayRange("XYZ"), weekdayRange(), weekdayRange("mon", "fri"),
        dateRange("JAN", "DEC"), dateRange("JAN", "DEC", "GMT"), dateRange(1, 31), dateRange(1, 31, "GMT"),
        dateRange(1995), dateRange(1990, 1999), dateRange(2000, 2999), dateRange(1, "JAN", 1990, 31, "DEC", 1999),
        dateRange(1, "JAN", 2000, 31, "DEC", 2999), dateRange("GMT"), dateRange(), dateRange(3000, "GMT"),
        dateRange("FOO"), dateRange(1, "JAN", 31, "DEC"),
        timeRange(0, 23), timeRange(0, 23, "GMT"), timeRange(0, 0, 23, 59), timeRange(0, 0, 0, 23, 59, 59),
        timeRange(0, 0, 0, 23, 59, 59, "GMT"), timeRange(24), timeRange(), timeRange(25, 26),
        timeRange(0, 0, 0, 0)
    ];
    if (weekdayRange("SUN", "SAT") && timeRange(0, 23)) return "PROXY always.example:3128; " + facts.join(",");
    return "DIRECT";
}
