package contract

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"time"
)

// Canonical skill lifecycle states.
const (
	StatusDraft    = "Draft"
	StatusApproved = "Approved"
	StatusDisabled = "Disabled"
)

// SkillRecord is a stored skill with its source.
type SkillRecord struct {
	Name        string
	Body        string // the full source as persisted
	Status      string // canonical status from the body's # Status: line (Draft when absent)
	Author      string // writer identity captured at write time, if any
	Description string // from # Description:, if present
	Type        string // from # Type:, if present
	ContentHash string // sha256 hex of Body
	Version     string // first 12 hex characters of ContentHash
	CreatedAt   time.Time
	UpdatedAt   time.Time
}

// Meta returns the record's metadata without the body.
func (r *SkillRecord) Meta() SkillMeta {
	return SkillMeta{
		Name: r.Name, Status: r.Status, Author: r.Author, Description: r.Description,
		Type: r.Type, ContentHash: r.ContentHash, Version: r.Version,
		CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt,
	}
}

// Map returns the record as a skill value (the `$ skill_read` result).
func (r *SkillRecord) Map() map[string]any {
	m := r.Meta().Map()
	m["source"] = r.Body
	m["body"] = r.Body
	return m
}

// SkillMeta is the header information of a stored skill.
type SkillMeta struct {
	Name        string
	Status      string
	Author      string
	Description string
	Type        string
	ContentHash string
	Version     string
	CreatedAt   time.Time
	UpdatedAt   time.Time
}

// Map returns the metadata as a skill value.
func (m SkillMeta) Map() map[string]any {
	var author any
	if m.Author != "" {
		author = m.Author
	}
	return map[string]any{
		"name": m.Name, "status": m.Status, "author": author, "description": m.Description,
		"type": m.Type, "content_hash": m.ContentHash, "version": m.Version,
		"created_at": formatTime(m.CreatedAt), "updated_at": formatTime(m.UpdatedAt),
	}
}

// SkillVersion is one entry of a skill's history.
type SkillVersion struct {
	Version     string
	ContentHash string
	Status      string
	Author      string
	CreatedAt   time.Time
}

// SkillQuery filters SkillStore.List; empty fields match everything.
type SkillQuery struct {
	Status string // canonical or any-case status
	Author string
}

// SkillStore persists skill sources.
type SkillStore interface {
	// Get returns the skill named name, or nil, nil when there is none.
	Get(ctx context.Context, name string) (*SkillRecord, error)
	// Write stores body under name, recording a new version when the body
	// changed, and returns the stored record.
	Write(ctx context.Context, name, body, author string) (*SkillRecord, error)
	// List returns the metadata of skills matching q, sorted by name.
	List(ctx context.Context, q SkillQuery) ([]SkillMeta, error)
	// Delete removes the skill and its history; the name is free afterwards.
	// Deleting an unknown skill is a *SkillNotFoundError.
	Delete(ctx context.Context, name string) error
	// Versions returns the skill's history, oldest first; empty when the
	// skill is unknown.
	Versions(ctx context.Context, name string) ([]SkillVersion, error)
	// UpdateStatus rewrites the skill's # Status: line to status.
	UpdateStatus(ctx context.Context, name, status string) error
}

// Versioner is implemented by skill stores that offer a cheap catalog
// change token. The token changes on every add, removal, status change and
// body edit.
type Versioner interface {
	Version(ctx context.Context) (string, error)
}

// SkillNotFoundError reports an operation on an unknown skill.
type SkillNotFoundError struct{ Name string }

// Error implements error.
func (e *SkillNotFoundError) Error() string { return fmt.Sprintf("skill %q not found", e.Name) }

// ContentHash returns the sha256 hex digest of body.
func ContentHash(body string) string {
	sum := sha256.Sum256([]byte(body))
	return hex.EncodeToString(sum[:])
}

// ContentHashOf is ContentHash of src as text, without the two copies of
// src that ContentHash(string(src)) makes (a 14k-line skill is 390 kB).
func ContentHashOf(src []byte) string {
	sum := sha256.Sum256(src)
	return hex.EncodeToString(sum[:])
}

// VersionOf returns the version token of a content hash: its first 12
// characters.
func VersionOf(hash string) string {
	if len(hash) > 12 {
		return hash[:12]
	}
	return hash
}

// CanonicalStatus normalizes the first word of a status value
// case-insensitively to Draft, Approved or Disabled, keeping any trailing
// signature token ("Approved v3:..."). It reports false for other values.
func CanonicalStatus(s string) (string, bool) {
	word, rest, _ := strings.Cut(strings.TrimSpace(s), " ")
	var canon string
	switch strings.ToLower(word) {
	case "draft":
		canon = StatusDraft
	case "approved":
		canon = StatusApproved
	case "disabled":
		canon = StatusDisabled
	default:
		return "", false
	}
	if rest = strings.TrimSpace(rest); rest != "" {
		return canon + " " + rest, true
	}
	return canon, true
}

// StatusWord returns the lifecycle word of a status, dropping any signature.
func StatusWord(status string) string {
	word, _, _ := strings.Cut(status, " ")
	return word
}
