# Sourced by the setup scripts that install a Python package into a venv of
# their own (setup-llm.sh, setup-mcp-py.sh): need_python_venv WHAT checks
# that python3 is 3.10 or later and can create a venv, installing Debian's
# python3-venv when it cannot. The caller defines log and die.
need_python_venv() {
	command -v python3 >/dev/null || die "python3 is required (Debian: apt-get install python3 python3-venv)"
	python3 -c 'import sys; sys.exit(sys.version_info < (3, 10))' || die "$1 needs Python 3.10 or later"
	if ! python3 -c 'import ensurepip, venv' 2>/dev/null; then
		# Debian splits venv support out of python3.
		command -v apt-get >/dev/null || die "python3 cannot create a venv (install python3-venv)"
		local sudo=""
		[ "$(id -u)" -eq 0 ] || sudo="sudo"
		log "apt-get install python3-venv"
		$sudo apt-get update -qq
		DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends python3-venv >/dev/null
	fi
}
