# drift-lsp's launcher for the local model server (llama.cpp's server through
# the xllamacpp wheel). Started by drift-lsp (llm/local) as
#   python serve.py MODEL.gguf PORT N_CTX THREADS ALIAS SLOTS SLOT_DIR
# It serves /v1/chat/completions and /health on 127.0.0.1:PORT and exits as
# soon as its standard input closes (drift-lsp holds the other end, so the
# server never outlives it) or its parent changes.
import ctypes, os, signal, sys, threading

def die_with_parent():
    try:  # Linux: SIGKILL when the parent dies (drift-lsp sets it too).
        ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except Exception:
        pass
    parent = os.getppid()
    def watch():
        try:
            while sys.stdin.buffer.read(4096):
                pass
        except Exception:
            pass
        os._exit(0)
    threading.Thread(target=watch, daemon=True).start()
    if os.getppid() != parent:
        os._exit(0)

def main():
    model, port, n_ctx, threads, alias = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
    slots = int(sys.argv[6]) if len(sys.argv) > 6 else 1
    slot_dir = sys.argv[7] if len(sys.argv) > 7 else ""
    die_with_parent()
    import xllamacpp
    p = xllamacpp.CommonParams()
    p.model.path = model
    p.model_alias = alias
    p.hostnames = ["127.0.0.1"]
    p.port = port
    p.n_ctx = n_ctx
    # SLOTS sequences decoded side by side (a request for n answers takes n
    # of them), in one KV cache they share: a prompt common to the slots is
    # held once, and each may use the whole context. The prompt cache
    # (cache_prompt, on by default) lets a request reuse the longest prefix
    # a slot already processed.
    p.n_parallel = slots
    p.kv_unified = True
    p.cache_prompt = True
    # Slot states are saved to and restored from SLOT_DIR (drift-lsp asks at
    # stop and start), so prompt prefixes outlive the process.
    if slot_dir:
        p.slot_save_path = slot_dir
        p.endpoint_slots = True
    # An idle slot keeps its prompt (by default llama.cpp moves it to a
    # host-memory cache and clears the slot, which would leave nothing to
    # save but the last prompt).
    p.cache_idle_slots = False
    # The batch threads are the same: llama.cpp uses them for every batch
    # of more than one token, so also to decode the n answers of one
    # request side by side, where little work lies between the threads'
    # waits, which a busy core stalls (tried on the shared 2-core machine
    # with two batch threads: no gain shown; see docs/pipeline.md, "Speed").
    p.cpuparams.n_threads = threads
    p.cpuparams_batch.n_threads = threads
    # No busy-waiting between operations: on a shared machine spinning
    # threads steal the CPU that the computation needs.
    p.cpuparams.poll = 0
    p.cpuparams_batch.poll = 0
    p.warmup = False
    # The model's built-in chat template is applied by llama.cpp's own
    # formatter (chatml for Qwen), not through Jinja: drift-lsp sends no tools
    # and reads plain content, and the Jinja path parses every answer for
    # tool calls, which fails a whole request (HTTP 500 "does not match the
    # expected peg-native format", seen after 155 s of a 4-answer request)
    # when one answer looks like a tool call.
    p.use_jinja = False
    server = xllamacpp.Server(p)
    print("drift-local-llm: listening on http://127.0.0.1:%d" % port, flush=True)
    threading.Event().wait()

main()
