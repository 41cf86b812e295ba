"""MkDocs hooks of the documentation site."""
