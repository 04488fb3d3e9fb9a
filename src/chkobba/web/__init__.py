"""Chkobba in the browser: the server (``chkobba serve``), its protocol and its pages."""
