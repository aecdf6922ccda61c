package astra

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strings"
)

// TokenVersion is the one token version.
const TokenVersion = "1.0"

// Token is a user's API token (application/astra-token). Secret is set only in the answer
// to the POST that made it: no GET ever shows it again (research notes §4.14).
type Token struct {
	Type     string                     `json:"type"`
	Version  string                     `json:"version"`
	ID       string                     `json:"id,omitempty"`
	Name     string                     `json:"name,omitempty"`
	UserID   string                     `json:"userID,omitempty"`
	Secret   string                     `json:"token,omitempty"`
	Metadata Metadata                   `json:"metadata,omitzero"`
	Extra    map[string]json.RawMessage `json:"-"`
}

// UnmarshalJSON keeps unknown members in Extra.
func (t *Token) UnmarshalJSON(b []byte) error {
	type plain Token
	return decodeKeepingExtra(b, (*plain)(t), &t.Extra)
}

// String never shows the secret.
func (t Token) String() string {
	return fmt.Sprintf("Token{ID:%q Name:%q UserID:%q}", t.ID, t.Name, t.UserID)
}

// GoString keeps %#v from printing the secret.
func (t Token) GoString() string { return t.String() }

type tokenPostBody struct {
	Type    string `json:"type"`
	Version string `json:"version"`
	Name    string `json:"name"`
}

const tokenResource = "token"

func tokensPath(userID string) (string, error) {
	seg, err := segment("user", userID)
	return usersPath + "/" + seg + "/tokens", err
}

// ListTokens lists a user's tokens (never their secrets).
func (c *Client) ListTokens(ctx context.Context, userID string, opts ListOptions) ([]Token, error) {
	path, err := tokensPath(userID)
	if err != nil {
		return nil, err
	}
	return list[Token](ctx, c, path, tokenResource, opts)
}

// CreateToken opens a token for a user. The answer is the only place its secret appears, so
// an answer without one (or none at all) is an error: the token made, if any, is unusable.
func (c *Client) CreateToken(ctx context.Context, userID, name string) (*Token, error) {
	if name == "" || len(name) > 63 {
		return nil, errors.New("astra: a token needs a name of 1 to 63 characters")
	}
	path, err := tokensPath(userID)
	if err != nil {
		return nil, err
	}
	noReadBack := func(context.Context, string) (*Token, error) {
		return nil, errors.New("the answer held no token: its secret is shown only in the answer to the POST")
	}
	t, err := create(ctx, c, path, tokenResource, tokenPostBody{Type: mediaType(tokenResource), Version: TokenVersion, Name: name}, noReadBack)
	if err == nil && t.Secret == "" {
		err = &UnknownOutcomeError{Method: "POST", Path: c.accountPath + path, Err: errors.New("the answer held no secret")}
	}
	return t, err
}

// DeleteToken revokes a token, at once and for good.
func (c *Client) DeleteToken(ctx context.Context, userID, id string) error {
	path, err := tokensPath(userID)
	if err != nil {
		return err
	}
	seg, err := segment("token", id)
	if err != nil {
		return err
	}
	return c.remove(ctx, path+"/"+seg, tokenResource, nil)
}

// AccountID is the account the client works in.
func (c *Client) AccountID() string {
	id, err := url.PathUnescape(strings.TrimPrefix(c.accountPath, "/accounts/"))
	if err != nil {
		return strings.TrimPrefix(c.accountPath, "/accounts/")
	}
	return id
}

// The token's own user. Astra Control's API has no "who am I" request; its tokens are JWTs
// (the spec's token example decodes to "A JWT Token would go here."), whose claims name the
// user. TokenUserID reads them, and never checks the signature: the service does that; a
// wrong claim only makes a plan-time safety check miss.

var uuidForm = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

// userClaims are the claims that may name a token's user, most specific first.
var userClaims = []string{"userID", "userId", "user_id", "uid", "sub"}

// TokenUserID is the ID of the user the client's API token belongs to, read from the
// token's JWT claims; ok is false when the token names none (an opaque token).
func (c *Client) TokenUserID() (string, bool) { return TokenUserID(c.token) }

// TokenUserID reads a user ID from a JWT (as is, or base64-encoded as the token member
// holds it); ok is false when token is no JWT or names no user.
func TokenUserID(token string) (string, bool) {
	for _, candidate := range []string{token, decodedToken(token)} {
		parts := strings.Split(candidate, ".")
		if len(parts) != 3 {
			continue
		}
		payload, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(parts[1], "="))
		if err != nil {
			continue
		}
		var claims map[string]any
		if json.Unmarshal(payload, &claims) != nil {
			continue
		}
		for _, name := range userClaims {
			if v, ok := claims[name].(string); ok && uuidForm.MatchString(v) {
				return strings.ToLower(v), true
			}
		}
	}
	return "", false
}

func decodedToken(token string) string {
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding, base64.RawStdEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(token); err == nil {
			return string(b)
		}
	}
	return ""
}
