# bash completion for pfc (docs/cli.md). Install: source this file, or copy it to
# /usr/share/bash-completion/completions/pfc.
_pfc() {
  local cur prev words cword
  _init_completion || return
  local commands="check run gen state compile mc trace"
  local command="" i
  for ((i = 1; i < cword; i++)); do
    case "${words[i]}" in
      check|run|gen|state|compile|mc|trace) command="${words[i]}"; break ;;
    esac
  done
  case "$prev" in
    --engine) COMPREPLY=($(compgen -W "interp jit auto" -- "$cur")); return ;;
    --output)
      if [[ $command == run ]]; then
        COMPREPLY=($(compgen -W "decisions events csv capture" -- "$cur")); return
      fi
      _filedir; return ;;
    --emit) COMPREPLY=($(compgen -W "ast ir llvm asm" -- "$cur")); return ;;
    --color) COMPREPLY=($(compgen -W "auto always never" -- "$cur")); return ;;
    --events) _filedir '@(jsonl|json|cap)'; return ;;
    -o|--output-file) _filedir; return ;;
    --count|--seed|--match-rate|--session) return ;;
    --level) COMPREPLY=($(compgen -W "critical error warning info verbose" -- "$cur")); return ;;
    --schema) _filedir '@(pfs|man)'; return ;;
    --script) _filedir pfs; return ;;
    --file) _filedir; return ;;
    -h) [[ $command == mc ]] && { _filedir -d; return; } ;;
    -z) [[ $command == mc ]] && return ;;
    --any|--all|--pid|--exe|--event-id|--property|--buffer-kb|--buffers|--circular) return ;;
  esac
  if [[ $cur == --color=* ]]; then
    COMPREPLY=($(compgen -W "auto always never" -- "${cur#--color=}")); return
  fi
  if [[ -z $command ]]; then
    COMPREPLY=($(compgen -W "$commands --help --version --color" -- "$cur")); return
  fi
  local opts="--help --color"
  case "$command" in
    check) opts+=" --events" ;;
    run) opts+=" --events --engine --explain --count --output -o --output-file --session --debug-crosscheck" ;;
    gen) opts+=" --count --seed -o --output --match-rate" ;;
    compile) opts+=" --emit" ;;
    mc)
      if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "-um -h -z --help" -- "$cur"))
      else
        _filedir man
      fi
      return ;;
    trace)
      local sub="" j
      for ((j = i + 1; j < cword; j++)); do
        case "${words[j]}" in start|enable|disable|list|query|stop|show|export) sub="${words[j]}"; break ;; esac
      done
      case "$sub" in
        "") COMPREPLY=($(compgen -W "start enable disable list query stop show export --help" -- "$cur")); return ;;
        start) opts+=" --realtime --buffer-kb --buffers --file --circular" ;;
        enable) opts+=" --level --any --all --pid --exe --event-id --property --script --session --schema" ;;
        disable) opts+=" --schema" ;;
        show) opts+=" --schema --follow --session" ;;
        export) opts+=" --format -o --output --schema" ;;
      esac
      COMPREPLY=($(compgen -W "$opts" -- "$cur")); return ;;
  esac
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$opts" -- "$cur"))
  else
    _filedir pfs
  fi
}
complete -F _pfc pfc
