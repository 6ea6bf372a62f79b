extension NginxPeer {
    /// The settings every test nginx shares: one worker, its pid file, logs and temporary files inside
    /// `directory`, no access log, plain MIME types, and read and send timeouts of ten minutes. Ends inside the
    /// `http` block.
    ///
    /// The timeouts are ``generousTimeout``'s for the same reason: nginx's default 60 s between two reads closed
    /// a 256 MiB upload under the test (`EPIPE` while sending) when, on two busy cores, the test process got no
    /// thread for longer than that.
    /// - Parameter directory: The peer's temporary directory.
    /// - Returns: The start of an `nginx.conf`.
    package static func commonSettings(directory: String) -> String {
        """
        worker_processes 1;
        pid \(directory)/nginx.pid;
        error_log \(directory)/error.log warn;
        events { worker_connections 256; }
        http {
            access_log off;
            client_header_timeout 600s;
            client_body_timeout 600s;
            send_timeout 600s;
            client_body_temp_path \(directory)/temp/client_body;
            proxy_temp_path \(directory)/temp/proxy;
            fastcgi_temp_path \(directory)/temp/fastcgi;
            uwsgi_temp_path \(directory)/temp/uwsgi;
            scgi_temp_path \(directory)/temp/scgi;
            types { text/plain txt; application/octet-stream bin; application/json json; application/xml xml; }
            default_type application/octet-stream;
        """
    }

    /// The `nginx.conf` for this peer's ports, directory and certificates.
    var configuration: String {
        let certs = certificates
        let connectionProbe =
            #"location = /conn { default_type text/plain; return 200 "$connection $connection_requests"; }"#
            + #" location = /remote-addr { default_type text/plain; return 200 "$remote_addr"; }"#
            + " location = /close { return 444; }"  // closes the connection without a response
        return """
            \(Self.commonSettings(directory: directory))
                log_format peer '$remote_addr "$request" via="$http_via"';
                keepalive_requests 1000;
                keepalive_timeout 60s;
                ssl_protocols TLSv1.2 TLSv1.3;

                server {
            \(listen(.plain, ssl: false))
                    access_log \(directory)/access.log peer;
                    root \(directory)/www;
                    \(connectionProbe)
                }
                server {
            \(listen(.tls, ssl: true))
                    access_log \(directory)/access.log peer;
                    ssl_certificate \(certs.serverCertificatePath);
                    ssl_certificate_key \(certs.serverKeyPath);
                    root \(directory)/www;
                    \(connectionProbe)
                }
                server {
            \(listen(.wrongName, ssl: true))
                    ssl_certificate \(certs.wrongNameCertificatePath);
                    ssl_certificate_key \(certs.wrongNameKeyPath);
                    root \(directory)/www;
                }
                server {
            \(listen(.clientAuth, ssl: true))
                    ssl_certificate \(certs.serverCertificatePath);
                    ssl_certificate_key \(certs.serverKeyPath);
                    ssl_verify_client on;
                    ssl_client_certificate \(certs.caPath);
                    location / { default_type text/plain; return 200 "$ssl_client_s_dn"; }
                }
            }

            """
    }

    private func listen(_ server: Server, ssl: Bool) -> String {
        let suffix = ssl ? " ssl" : ""
        var lines = ["        listen 127.0.0.1:\(port(server))\(suffix);"]
        if LoopbackPorts.hasIPv6Loopback { lines.append("        listen [::1]:\(port(server))\(suffix);") }
        return lines.joined(separator: "\n")
    }
}
