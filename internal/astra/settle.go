package astra

import "time"

// RequestTimeout is how long one attempt may take (Config.RequestTimeout, 60s by default).
// A server may still be acting on a request this client gave up on after that long; callers
// resolving an UnknownOutcomeError look for the object for about as long again.
func (c *Client) RequestTimeout() time.Duration { return c.http.HTTPClient.Timeout }
