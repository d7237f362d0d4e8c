"""Tools that do the same job, so one that left the manifests can be matched to its successor."""

from __future__ import annotations

ROLES: dict[str, frozenset[str]] = {
    "JavaScript test runner": frozenset({"jest", "vitest", "mocha", "jasmine", "ava", "karma",
                                         "tap", "uvu"}),
    "Python test runner": frozenset({"pytest", "nose", "nose2", "ward"}),
    "bundler": frozenset({"webpack", "vite", "rollup", "parcel", "esbuild", "snowpack",
                          "browserify", "rspack"}),
    "JavaScript linter": frozenset({"eslint", "tslint", "@biomejs/biome", "oxlint", "jshint"}),
    "JavaScript formatter": frozenset({"prettier", "@biomejs/biome", "dprint"}),
    "Python linter": frozenset({"flake8", "pylint", "ruff", "pyflakes", "pycodestyle"}),
    "Python formatter": frozenset({"black", "yapf", "autopep8", "ruff"}),
    "Python type checker": frozenset({"mypy", "pyright", "pytype"}),
    "UI framework": frozenset({"react", "preact", "vue", "svelte", "solid-js", "@angular/core"}),
    "Python web framework": frozenset({"django", "flask", "fastapi", "starlette", "falcon",
                                       "sanic", "bottle"}),
    "Node web framework": frozenset({"express", "koa", "fastify", "@hapi/hapi", "@nestjs/core"}),
    "ORM": frozenset({"sqlalchemy", "peewee", "tortoise-orm", "prisma", "typeorm", "sequelize",
                      "drizzle-orm"}),
    "HTTP client": frozenset({"requests", "httpx", "aiohttp", "axios", "node-fetch", "got"}),
    "Postgres driver": frozenset({"psycopg", "psycopg2", "psycopg2-binary", "asyncpg", "pg"}),
    "task queue": frozenset({"celery", "rq", "dramatiq", "huey", "bull", "bullmq"}),
    "browser test tool": frozenset({"cypress", "@playwright/test", "puppeteer", "selenium"}),
    "state library": frozenset({"redux", "@reduxjs/toolkit", "mobx", "zustand", "jotai"}),
}

# How people write a package in prose, when that differs from its package name.
ALIASES: dict[str, str] = {
    "playwright": "@playwright/test", "angular": "@angular/core", "nestjs": "@nestjs/core",
    "biome": "@biomejs/biome", "solid": "solid-js", "hapi": "@hapi/hapi",
    "redux toolkit": "@reduxjs/toolkit",
}
# The ".js" name a project goes by in prose; its package drops it. Read, never written.
JS_NAMES: dict[str, str] = {
    "next.js": "next", "nextjs": "next", "vue.js": "vue", "vuejs": "vue", "nuxt.js": "nuxt",
    "express.js": "express", "react.js": "react", "reactjs": "react", "three.js": "three",
    "d3.js": "d3", "ember.js": "ember-source", "backbone.js": "backbone",
}
SPELLINGS = {**ALIASES, **JS_NAMES}  # every way prose names a package, to its name

RUNTIMES: dict[str, str] = {
    "python": "python", "node": "node", "node.js": "node", "nodejs": "node", "golang": "go",
    "go": "go", "rust": "rust", "ruby": "ruby", "java": "java", "php": "php", "r": "r",
}

# Package names that are also ordinary words: only a backticked or versioned mention counts.
COMMON_WORDS = frozenset({
    "requests", "click", "rich", "black", "mock", "six", "attrs", "toml", "express", "next",
    "got", "tap", "debug", "glob", "path", "util", "events", "chalk", "commander", "ms", "q",
    "co", "async", "http", "url", "go", "ruby", "java", "rust", "ward", "bottle", "falcon",
    "huey", "rq", "pg", "bull", "koa", "solid", "vue", "lit", "uvu", "ava", "nose", "karma",
    "mocha", "jasmine", "parcel", "rollup", "prettier", "typer", "pydantic", "r", "php",
})


def roles_of(package: str) -> list[str]:
    return sorted(role for role, members in ROLES.items() if package in members)


def same_role(package: str) -> frozenset[str]:
    """Every package sharing at least one role with `package`, itself excluded."""
    return frozenset(m for role in roles_of(package) for m in ROLES[role]) - {package}


def display_name(package: str) -> str:
    """How to write a package in prose: its alias when it has one, else its bare name."""
    for alias, target in ALIASES.items():
        if target == package:
            return alias
    return package
