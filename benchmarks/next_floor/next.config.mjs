// As the generated project's: no X-Powered-By header.
export default { poweredByHeader: false };
