// Script behaviour the evaluator must match: try/catch, alert, string answers built from objects, non-ASCII text.
function FindProxyForURL(url, host) {
    alert("evaluating " + url);
    var answer;
    try {
        undefinedFunction();
    } catch (e) {
        answer = "PROXY caught.example:1 ; " + (e instanceof ReferenceError);
    }
    var label = "proxy-\u00e9t\u00e9";
    if (host == "unicode.example") return "PROXY " + label + ".example:8080";
    if (host == "empty.example") return "";
    if (host == "spaces.example") return "  proxy   a.example:1 ;;  direct  ";
    if (host == "localhost") return undefined;
    if (host == "10.1.2.3") return ["PROXY a:1", "DIRECT"];
    if (host == "127.0.0.1") return {toString: function () { return "PROXY object.example:2"; }};
    if (host == "192.168.1.20") return 42;
    return answer + " " + [1, 2, 3].map(function (x) { return x * 2; }).join("-") + " " + JSON.stringify({a: [1, "b"]});
}
