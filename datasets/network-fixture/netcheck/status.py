import http.client


def http_status(host, port=443, path="/", timeout=5.0):
    """Return the HTTP status code a server answers a HEAD request with.

    Opens a connection to ``host`` on ``port`` (TLS on 443, plain HTTP on
    any other port), sends ``HEAD path`` and reads the status line of the
    answer. Nothing of the body is read.

    Args:
        host: the server's name or address.
        port: the TCP port; 443 means HTTPS.
        path: the path to ask for.
        timeout: seconds to wait for the connection and the answer.

    Returns:
        The status code, e.g. 200.
    """
    connection_type = http.client.HTTPSConnection if port == 443 else http.client.HTTPConnection
    connection = connection_type(host, port, timeout=timeout)
    try:
        connection.request("HEAD", path)
        return connection.getresponse().status
    finally:
        connection.close()
