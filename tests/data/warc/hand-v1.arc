filedesc://IAH-20060519043512-00000-hand.arc 0.0.0.0 20060519043512 text/plain 132
1 0 Internet Archive
URL IP-address Archive-date Content-type Archive-length

<?xml version="1.0" encoding="UTF-8"?>
<arcmetadata/>

http://www.example.com/ 192.0.2.1 20060519043513 text/html 80
HTTP/1.1 200 OK
Content-Type: text/html; charset=iso-8859-1

<html>arc</html>
http://example.com/a b 192.0.2.2 20060519043514 text/plain 54
HTTP/1.0 404 Not Found
Content-Type: text/plain

no
dns:example.com 192.0.2.3 20060519043515 text/dns 47
20060519043515
example.com. 300 IN A 192.0.2.1

