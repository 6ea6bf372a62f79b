/// The PAC functions written in JavaScript, evaluated in every engine before the PAC file (which may redefine
/// them). `dnsResolve`, `dnsResolveEx`, `myIpAddress`, `myIpAddressEx` and `alert` are native (CDuktape).
///
/// Semantics follow the reference evaluator pacparser (Mozilla's PAC utilities), quirks included, so that
/// answers match it; the deliberate choices are in decision 0016.
enum PACUtilities {
    static let script = #"""
        function isPlainHostName(host) { return host.indexOf('.') == -1; }

        function dnsDomainIs(host, domain) {
            var start = host.length - domain.length;
            return start >= 0 && host.substring(start) == domain;
        }

        function localHostOrDomainIs(host, hostdom) {
            return host == hostdom || hostdom.substring(0, host.length + 1) == host + '.';
        }

        function dnsDomainLevels(host) { return (host.match(/\./g) || []).length; }

        function isResolvable(host) { return dnsResolve(host) != null; }
        function isResolvableEx(host) { return dnsResolveEx(host) != null; }

        function convert_addr(ipchars) {
            var parts = ipchars.split('.'), value = 0;
            for (var i = 0; i < 4; i++) value = (value << 8) | (parts[i] & 0xff);
            return value;
        }

        function isInNet(ipaddr, pattern, maskstr) {
            var quad = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(ipaddr);
            if (quad == null) {
                ipaddr = dnsResolve(ipaddr);
                if (ipaddr == null) return false;
            } else {
                for (var i = 1; i <= 4; i++) if (quad[i] > 255) return false;
            }
            var mask = convert_addr(maskstr);
            return (convert_addr(ipaddr) & mask) == (convert_addr(pattern) & mask);
        }

        function __asiExpand6(text) {
            text = text.replace(/(^:|:$)/, '');
            var fields = text.split(':'), missing = 8 - fields.length, out = [];
            var expanded = false;
            for (var i = 0; i < fields.length; i++) {
                if (fields[i] == '' && !expanded) {
                    expanded = true;
                    for (var j = 0; j <= missing; j++) out.push(0);
                } else {
                    out.push(parseInt(fields[i], 16));
                }
            }
            return out;
        }

        function __asiInNet6(ipaddr, prefix, length) {
            if (length > 128) return false;
            var address = __asiExpand6(ipaddr), network = __asiExpand6(prefix);
            var whole = Math.floor(length / 16), rest = length % 16;
            for (var i = 0; i < whole; i++) if (address[i] != network[i]) return false;
            if (rest > 0 && (address[whole] >> (16 - rest)) != (network[whole] >> (16 - rest))) return false;
            return true;
        }

        function isInNetEx(ipaddr, prefix) {
            var parts = prefix.split('/');
            if (parts.length != 2) return false;
            var length = parts[1];
            if (!/^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(ipaddr)) return __asiInNet6(ipaddr, parts[0], length);
            if (length > 32) return false;
            var mask = [];
            for (var octet = 1; octet <= 4; octet++) {
                var shift = 8 * octet - length;
                mask.push(shift <= 0 ? 255 : (0xff >> shift) << shift);
            }
            return isInNet(ipaddr, parts[0], mask.join('.'));
        }

        function shExpMatch(str, shexp) {
            var source = '';
            for (var i = 0; i < shexp.length; i++) {
                var c = shexp.charAt(i);
                source += c == '.' ? '\\.' : c == '*' ? '.*' : c == '?' ? '.' : c;
            }
            return new RegExp('^' + source + '$').test(str);
        }

        var __asiDays = {SUN: 0, MON: 1, TUE: 2, WED: 3, THU: 4, FRI: 5, SAT: 6};
        var __asiMonths = {JAN: 0, FEB: 1, MAR: 2, APR: 3, MAY: 4, JUN: 5, JUL: 6, AUG: 7, SEP: 8, OCT: 9, NOV: 10,
                           DEC: 11};
        function __asiLookup(table, name) { return table.hasOwnProperty(name) ? table[name] : -1; }

        // Sets a date's local fields to its UTC fields, one setter after another (the reference's order).
        function __asiShiftToUTC(date) {
            date.setFullYear(date.getUTCFullYear());
            date.setMonth(date.getUTCMonth());
            date.setDate(date.getUTCDate());
            date.setHours(date.getUTCHours());
            date.setMinutes(date.getUTCMinutes());
            date.setSeconds(date.getUTCSeconds());
        }

        function weekdayRange() {
            var count = arguments.length, now = new Date(), today;
            if (count < 1) return false;
            if (arguments[count - 1] == 'GMT') {
                count--;
                today = now.getUTCDay();
            } else {
                today = now.getDay();
            }
            var first = __asiLookup(__asiDays, arguments[0]);
            var last = count == 2 ? __asiLookup(__asiDays, arguments[1]) : first;
            if (first == -1 || last == -1) return false;
            return first <= today && today <= last;
        }

        function dateRange() {
            var now = new Date(), count = arguments.length;
            if (count < 1) return false;
            var gmt = arguments[count - 1] == 'GMT';
            if (gmt) count--;
            if (count == 1) {
                var single = parseInt(arguments[0]);
                if (isNaN(single)) {
                    return (gmt ? now.getUTCMonth() : now.getMonth()) == __asiLookup(__asiMonths, arguments[0]);
                }
                if (single < 32) return (gmt ? now.getUTCDate() : now.getDate()) == single;
                return (gmt ? now.getUTCFullYear() : now.getFullYear()) == single;
            }
            var year = now.getFullYear();
            var from = new Date(year, 0, 1, 0, 0, 0), to = new Date(year, 11, 31, 23, 59, 59);
            var sameMonth = false, half = count >> 1;
            function apply(date, value, isFrom) {
                var number = parseInt(value);
                if (isNaN(number)) {
                    date.setMonth(__asiLookup(__asiMonths, value));
                } else if (number < 32) {
                    if (isFrom) sameMonth = count <= 2;
                    date.setDate(number);
                } else {
                    date.setFullYear(number);
                }
            }
            for (var i = 0; i < half; i++) apply(from, arguments[i], true);
            for (var k = half; k < count; k++) apply(to, arguments[k], false);
            if (sameMonth) {
                from.setMonth(now.getMonth());
                to.setMonth(now.getMonth());
            }
            if (gmt) __asiShiftToUTC(now);
            return from <= now && now <= to;
        }

        function timeRange() {
            var count = arguments.length, now = new Date(), gmt = false;
            if (count < 1) return false;
            if (arguments[count - 1] == 'GMT') {
                gmt = true;
                count--;
            }
            var hour = gmt ? now.getUTCHours() : now.getHours();
            var from = new Date(), to = new Date();
            if (count == 1) return hour == arguments[0];
            if (count == 2) return arguments[0] <= hour && hour <= arguments[1];
            if (count != 4 && count != 6) throw 'timeRange: bad number of arguments';
            var middle = count >> 1;
            if (count == 6) {
                from.setSeconds(arguments[2]);
                to.setSeconds(arguments[5]);
            }
            from.setHours(arguments[0]);
            from.setMinutes(arguments[1]);
            to.setHours(arguments[middle]);
            to.setMinutes(arguments[middle + 1]);
            if (count == 4) to.setSeconds(59);
            if (gmt) __asiShiftToUTC(now);
            return from <= now && now <= to;
        }

        function sortIpAddressList(list) {
            if (typeof list != 'string' || list == '') return false;
            var keyed = [], items = list.split(';');
            for (var i = 0; i < items.length; i++) {
                var text = items[i], key;
                if (/^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(text)) {
                    var octets = text.split('.');
                    key = '1';
                    for (var o = 0; o < 4; o++) {
                        if (octets[o] > 255) return false;
                        key += ('00' + parseInt(octets[o], 10)).slice(-3);
                    }
                } else if (/^[0-9A-Fa-f:]+$/.test(text) && text.indexOf(':') != -1) {
                    var fields = __asiExpand6(text);
                    if (fields.length != 8) return false;
                    key = '0';
                    for (var f = 0; f < 8; f++) {
                        if (isNaN(fields[f]) || fields[f] > 0xffff) return false;
                        key += ('0000' + fields[f].toString(16)).slice(-4);
                    }
                } else {
                    return false;
                }
                keyed.push([key, text]);
            }
            keyed.sort(function (a, b) { return a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0; });
            var sorted = [];
            for (var s = 0; s < keyed.length; s++) sorted.push(keyed[s][1]);
            return sorted.join(';');
        }

        function getClientVersion() { return '1.0'; }

        function findProxyForURL(url, host) {
            if (typeof FindProxyForURLEx == 'function') return FindProxyForURLEx(url, host);
            return FindProxyForURL(url, host);
        }
        """#
}
