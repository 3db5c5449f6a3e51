/* Assembly is compiled as it is. */
        .text
        .globl asm_answer
asm_answer:
        movl $42, %eax
        ret
        .section .note.GNU-stack,"",@progbits
